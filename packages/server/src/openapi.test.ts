import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApi, type TestApi } from "./test-support.js";

describe("OpenAPI document", () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi("pglite");
  }, 120_000);
  afterAll(async () => api?.close());

  it("is a valid OpenAPI 3.1 document describing every /v1 and /auth operation", async () => {
    const res = await api.app.request("/v1/openapi.json");
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { openapi: string; paths: Record<string, Record<string, unknown>>; components: { securitySchemes: Record<string, unknown> } };
    const result = await new Validator().validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe("3.1.0");
    const ops = Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`)).sort();
    expect(ops).toEqual([
      "DELETE /v1/keys/{id}", "GET /auth/me", "GET /auth/oauth/github", "GET /auth/oauth/github/callback",
      "GET /auth/oauth/google", "GET /auth/oauth/google/callback", "GET /auth/password/reset", "GET /auth/verify",
      "GET /v1/admin/support/tickets", "GET /v1/admin/support/tickets/{id}", "GET /v1/audit/export", "GET /v1/audit/verify", "GET /v1/audit/{id}", "GET /v1/billing",
      "GET /v1/checks/{id}/review", "GET /v1/graph/{type}/{value}", "GET /v1/history", "GET /v1/jobs/{id}",
      "GET /v1/keys", "GET /v1/reports", "GET /v1/reviews", "GET /v1/usage",
      "GET /v1/webhook-secret", "POST /auth/login", "POST /auth/logout", "POST /auth/password",
      "POST /auth/password/forgot", "POST /auth/password/reset", "POST /auth/signup", "POST /auth/verify/resend",
      "POST /v1/account/deletion", "POST /v1/admin/support/tickets/{id}/reply", "POST /v1/billing/checkout", "POST /v1/billing/portal", "POST /v1/billing/refunds",
      "POST /v1/billing/webhook", "POST /v1/checks/{id}/review", "POST /v1/jobs/{id}/cancel", "POST /v1/keys",
      "POST /v1/report", "POST /v1/reports/{id}/approve", "POST /v1/reports/{id}/confirm", "POST /v1/reports/{id}/reject",
      "POST /v1/reviews/{id}/resolve", "POST /v1/screen", "POST /v1/screen/async", "POST /v1/screen/batch",
      "POST /v1/webhook-secret/rotate",
    ]);
    expect(doc.components.securitySchemes.ApiKey).toMatchObject({ type: "apiKey", in: "header", name: "X-API-Key" });
    expect(doc.components.securitySchemes.Session).toMatchObject({ type: "apiKey", in: "cookie", name: "svc_session" });
  });
});
