import { HistoryResponseSchema, ProblemSchema, VerdictSchema } from "@svc/contracts";
import { encodeCursor } from "@svc/core";
import { TypeOrmServerSecrets } from "@svc/persistence";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "./app.js";
import { startTestApi, type TestApi } from "./test-support.js";

const engines = (["pglite", "postgres"] as const).filter((e) => e === "pglite" || process.env.TEST_DATABASE_URL);

describe.each(engines)("HTTP conventions on %s", (engine) => {
  let api: TestApi;
  let key = "";
  beforeAll(async () => {
    api = await startTestApi(engine);
    ({ key } = await api.account("pro"));
  }, 120_000);
  afterAll(async () => api?.close());

  const req = (path: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}) =>
    api.app.request(path, {
      method: init.method ?? "GET",
      headers: { ...(init.body !== undefined ? { "content-type": "application/json" } : {}), ...init.headers },
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    });
  const expectProblem = async (res: Response, status: number, code: string) => {
    expect(res.status).toBe(status);
    expect(res.headers.get("content-type")).toContain("application/problem+json");
    expect(res.headers.get("x-request-id")).toBeTruthy();
    const body = ProblemSchema.parse(await res.json());
    expect(body).toMatchObject({ code, status });
    return body;
  };

  describe("Authorization: Bearer", () => {
    it("is accepted beside X-API-Key, with the same checks", async () => {
      const res = await req("/v1/screen", { method: "POST", headers: { authorization: `Bearer ${key}` }, body: { entity_value: "paypa1.com" } });
      expect(res.status).toBe(200);
      expect((await req("/v1/history", { headers: { authorization: `bearer   ${key}` } })).status).toBe(200);
      expect((await req("/v1/history", { headers: { authorization: `Bearer ${key}`, "x-api-key": key } })).status).toBe(200);
      await expectProblem(await req("/v1/history", { headers: { authorization: "Bearer not-a-key" } }), 401, "auth.invalid_key");
      await expectProblem(await req("/v1/history", { headers: { authorization: "Bearer " } }), 401, "auth.missing_key");
      const revoked = await api.account();
      await api.runtime.services.keys.revoke(revoked.accountId, revoked.keyId, new Date());
      await expectProblem(await req("/v1/history", { headers: { authorization: `Bearer ${revoked.key}` } }), 401, "auth.revoked_key");
    });
    it("two different keys are refused with 400 auth.conflicting_keys", async () => {
      const other = await api.account();
      const body = await expectProblem(await req("/v1/history", { headers: { authorization: `Bearer ${other.key}`, "x-api-key": key } }), 400, "auth.conflicting_keys");
      expect(body.detail).not.toContain(key);
    });
    it("another scheme alone is a missing key that says which scheme to use; beside X-API-Key it is ignored", async () => {
      const res = await req("/v1/history", { headers: { authorization: "Basic dXNlcjpwYXNz" } });
      const body = await expectProblem(res, 401, "auth.missing_key");
      expect(body.detail).toContain("Bearer");
      expect(res.headers.get("www-authenticate")).toContain("Bearer");
      expect((await req("/v1/history", { headers: { authorization: "Basic dXNlcjpwYXNz", "x-api-key": key } })).status).toBe(200);
    });
  });

  describe("405 and 404", () => {
    it.each([
      ["GET", "/v1/screen", "POST"],
      ["DELETE", "/v1/history", "GET, HEAD"],
      ["PUT", "/v1/audit/chk_x", "GET, HEAD"],
      ["GET", "/v1/screen/batch", "POST"],
      ["POST", "/v1/openapi.json", "GET, HEAD"],
      ["DELETE", "/healthz", "GET, HEAD"],
    ])("%s %s → 405 with Allow: %s, before the key is checked", async (method, path, allow) => {
      for (const headers of [{ "x-api-key": key }, {}] as Record<string, string>[]) {
        const res = await req(path, { method, headers });
        const body = await expectProblem(res, 405, "http.method_not_allowed");
        expect(res.headers.get("allow")).toBe(allow);
        expect(body.detail).toContain(method);
      }
    });
    it("derives Allow from the registered routes, including routes added later", async () => {
      const app = createApp(api.runtime.services);
      app.get("/v1/late-route", (c) => c.json({ ok: true }));
      app.patch("/v1/late-route", (c) => c.json({ ok: true }));
      const res = await app.request("/v1/late-route", { method: "DELETE" });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("GET, HEAD, PATCH");
      expect((await app.request("/v1/late-route", { headers: { "x-api-key": key } })).status).toBe(200);
    });
    it.each([
      ["GET", "/v1/nope"],
      ["POST", "/v1/nope/deeper"],
      ["GET", "/nope"],
      ["DELETE", "/v1"],
    ])("%s %s → problem+json 404 with or without a key", async (method, path) => {
      for (const headers of [{ "x-api-key": key }, {}, { "x-api-key": "junk" }] as Record<string, string>[]) {
        await expectProblem(await req(path, { method, headers }), 404, "not_found");
      }
    });
    it("known routes still ask for the key first", async () => {
      await expectProblem(await req("/v1/history"), 401, "auth.missing_key");
      await expectProblem(await req("/v1/audit/chk_x"), 401, "auth.missing_key");
    });
  });

  describe("history cursors", () => {
    const page = async (k: string, query: string) => {
      const res = await req(`/v1/history?${query}`, { headers: { "x-api-key": k } });
      expect(res.status).toBe(200);
      return HistoryResponseSchema.parse(await res.json());
    };
    it("are signed and bound to the account: edited, forged or another account's cursors are 422", async () => {
      const a = await api.account();
      const b = await api.account();
      for (const d of ["ca1.example.com", "ca2.example.com", "ca3.example.com"]) expect((await req("/v1/screen", { method: "POST", headers: { "x-api-key": a.key }, body: { entity_value: d } })).status).toBe(200);
      for (const d of ["cb1.example.com", "cb2.example.com"]) expect((await req("/v1/screen", { method: "POST", headers: { "x-api-key": b.key }, body: { entity_value: d } })).status).toBe(200);
      const p1 = await page(a.key, "limit=1");
      const cursor = p1.next_cursor!;
      expect((await page(a.key, `limit=1&cursor=${encodeURIComponent(cursor)}`)).items.map((i) => i.entity.value)).toEqual(["ca2.example.com"]);

      // Another account: refused, not a page of its own data from A's position.
      await expectProblem(await req(`/v1/history?cursor=${encodeURIComponent(cursor)}`, { headers: { "x-api-key": b.key } }), 422, "request.invalid_cursor");
      // The position edited (a later time, to see newer items), keeping the signature.
      const [raw, mac] = cursor.split(".") as [string, string];
      const later = encodeCursor({ created_at: "2100-01-01T00:00:00.000Z", id: "chk_zzzz" });
      expect(raw).not.toBe(later);
      await expectProblem(await req(`/v1/history?cursor=${encodeURIComponent(`${later}.${mac}`)}`, { headers: { "x-api-key": a.key } }), 422, "request.invalid_cursor");
      // An unsigned position in the store's format, and a flipped signature character.
      await expectProblem(await req(`/v1/history?cursor=${later}`, { headers: { "x-api-key": a.key } }), 422, "request.invalid_cursor");
      const flipped = `${raw}.${mac.slice(0, 5)}${mac[5] === "A" ? "B" : "A"}${mac.slice(6)}`;
      await expectProblem(await req(`/v1/history?cursor=${encodeURIComponent(flipped)}`, { headers: { "x-api-key": a.key } }), 422, "request.invalid_cursor");
    });
    it("are signed with a key kept in the database, the same for every replica and restart", async () => {
      const secrets = new TypeOrmServerSecrets(api.runtime.dataSource);
      const first = await secrets.get("history-cursor", new Date());
      expect(await secrets.get("history-cursor", new Date())).toBe(first);
      expect(first.length).toBeGreaterThanOrEqual(43);
      expect(new TextDecoder().decode(api.runtime.services.cursorKey)).toBe(first);
    });
  });

  describe("GET / and /docs", () => {
    it("answers JSON to a client that asks for JSON, with links on the host it used", async () => {
      const res = await api.app.request("http://screen.example.test:8443/", { headers: { accept: "application/json" } });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain("application/json");
      const body = (await res.json()) as { name: string; description: string; links: { docs: string; openapi: string } };
      expect(body.name).toBe("svc");
      expect(body.description).toMatch(/risk/);
      expect(body.links).toMatchObject({ docs: "http://screen.example.test:8443/docs", openapi: "http://screen.example.test:8443/v1/openapi.json" });
      expect(res.headers.get("vary")).toContain("Accept");
    });
    it("shows a short HTML page otherwise, linking /docs and the OpenAPI document", async () => {
      for (const accept of [undefined, "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", "*/*"]) {
        const res = await api.app.request("/", { headers: accept ? { accept } : {} });
        expect(res.status).toBe(200);
        expect(res.headers.get("content-type")).toContain("text/html");
        const html = await res.text();
        expect(html).toContain('href="/docs"');
        expect(html).toContain('href="/v1/openapi.json"');
      }
    });
    it("the docs page uses the request's host, and https only from a well-formed X-Forwarded-Proto", async () => {
      const plain = await (await api.app.request("http://api.example.test/docs")).text();
      expect(plain).toContain("http://api.example.test/v1/screen");
      expect(plain).not.toContain("localhost:8080");
      const proxied = await (await api.app.request("http://api.example.test/docs", { headers: { "x-forwarded-proto": "https" } })).text();
      expect(proxied).toContain("https://api.example.test/v1/screen");
      const hostile = await (await api.app.request("http://api.example.test/docs", { headers: { "x-forwarded-proto": "javascript\"><script>alert(1)</script>" } })).text();
      expect(hostile).toContain("http://api.example.test/v1/screen");
      expect(hostile).not.toContain("alert(1)");
    });
  });

  describe("OpenAPI", () => {
    it("declares the Bearer and session schemes and offers them on every operation that takes the key", async () => {
      const doc = (await (await api.app.request("/v1/openapi.json")).json()) as { paths: Record<string, Record<string, { security?: Record<string, unknown>[] }>>; components: { securitySchemes: Record<string, unknown> } };
      expect(doc.components.securitySchemes.Bearer).toMatchObject({ type: "http", scheme: "bearer" });
      const ops = Object.entries(doc.paths).filter(([path]) => path.startsWith("/v1/")).flatMap(([, p]) => Object.values(p));
      expect(ops.length).toBeGreaterThan(5);
      // `security: []` marks the one operation that takes no key (Stripe's signed webhook).
      const keyed = ops.filter((op) => !(Array.isArray(op.security) && op.security.length === 0));
      expect(ops.length - keyed.length).toBe(1);
      for (const op of keyed) expect(op.security).toEqual(expect.arrayContaining([{ ApiKey: [] }, { Bearer: [] }, { Session: [] }]));
    });
  });

  it("a hosting platform's own domain gets a verdict", async () => {
    for (const d of ["webflow.io", "github.io", "vercel.app", "blogspot.com", "foo.webflow.io"]) {
      const res = await req("/v1/screen", { method: "POST", headers: { "x-api-key": key }, body: { entity_value: d } });
      expect(res.status, d).toBe(200);
      const v = VerdictSchema.parse(await res.json());
      expect(v.entity.value).toBe(d);
    }
  });
});
