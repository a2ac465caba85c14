import { ProblemSchema } from "@svc/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApi, type TestApi } from "./test-support.js";

const engines = (["pglite", "postgres"] as const).filter((e) => e === "pglite" || process.env.TEST_DATABASE_URL);

// JSON nested 5,000 levels deep, as text: building it as an object and serializing it here would
// overflow this test's own stack before the server ever saw it.
const DEEP = `${'{"a":'.repeat(5_000)}1${"}".repeat(5_000)}`;
const DEEP_MARK = "\u0001deep\u0001";
const body = (b: unknown) => JSON.stringify(b).replace(JSON.stringify(DEEP_MARK), DEEP);

describe.each(engines)("text the database cannot store is refused at the edge on %s", (engine) => {
  let api: TestApi;
  let key = "";
  beforeAll(async () => {
    api = await startTestApi(engine);
    ({ key } = await api.account("pro"));
  }, 120_000);
  afterAll(async () => api?.close());

  const post = (path: string, b: unknown) => api.app.request(path, { method: "POST", headers: { "content-type": "application/json", "x-api-key": key }, body: body(b) });
  const get = (path: string) => api.app.request(path, { headers: { "x-api-key": key } });
  const expectProblem = async (res: Response, status: number, code: string, errorCode?: string) => {
    const text = await res.text();
    expect(res.status, text).toBe(status);
    expect(res.headers.get("content-type")).toContain("application/problem+json");
    const p = ProblemSchema.parse(JSON.parse(text));
    expect(p.code).toBe(code);
    if (errorCode) expect(p.errors?.map((e) => e.code)).toContain(errorCode);
  };
  const report = (extra: Record<string, unknown>) => post("/v1/report", { entity_value: "paypa1.com", category: "scam", ...extra });

  it.each([
    ["NUL in metadata", { metadata: { note: "a\u0000b" } }, "validation.invalid_text"],
    ["a lone surrogate in metadata", { metadata: { note: "a\ud800b" } }, "validation.invalid_text"],
    ["a lone surrogate in a metadata key", { metadata: { ["k\udc00"]: 1 } }, "validation.invalid_text"],
    ["5,000-deep metadata", { metadata: { note: DEEP_MARK } }, "validation.too_deep"],
    ["NUL in webhook_url", { webhook_url: "https://example.com/\u0000" }, "validation.invalid_text"],
  ])("POST /v1/screen/async with %s: 422", async (_name, extra, errorCode) => {
    await expectProblem(await post("/v1/screen/async", { entity_value: "paypa1.com", ...extra }), 422, "request.invalid", errorCode);
  });

  it.each([
    ["NUL in description", { description: "fake\u0000shop" }, "validation.invalid_text"],
    ["a lone surrogate in description", { description: "fake\ud800shop" }, "validation.invalid_text"],
    ["NUL in evidence_urls", { evidence_urls: ["https://example.com/\u0000"] }, "validation.invalid_text"],
    ["a lone surrogate in evidence_urls", { evidence_urls: ["https://example.com/\ud800"] }, "validation.invalid_text"],
    ["NUL in related_entities", { related_entities: ["evil.com\u0000"] }, "validation.invalid_text"],
    ["a lone surrogate in related_entities", { related_entities: ["ev\ud800il.com"] }, "validation.invalid_text"],
    ["NUL in check_id", { check_id: "chk_\u0000" }, "validation.invalid_text"],
    ["5,000-deep category", { category: DEEP_MARK }, undefined],
    ["5,000-deep description", { description: DEEP_MARK }, undefined],
  ])("POST /v1/report with %s: 422", async (_name, extra, errorCode) => {
    await expectProblem(await report(extra), 422, "request.invalid", errorCode);
  });

  it.each([
    "/v1/jobs/%00", "/v1/jobs/%00/cancel", "/v1/audit/%00", "/v1/graph/domain/%00", "/v1/graph/domain/paypa1.com?relation=%00",
    "/v1/history?cursor=%00", "/v1/history?type=%00", "/v1/history?since=%00", "/v1/audit/export?since=%00", "/v1/audit/%ED%A0%80", "/v1/history?cursor=%E0%A4%A",
  ])("GET %s: 400 request.invalid_text", async (path) => {
    const res = path.endsWith("/cancel") ? await post(path, {}) : await get(path);
    await expectProblem(res, 400, "request.invalid_text", "request.invalid_text");
  });

  it("ordinary text, astral characters (a surrogate pair) and nested metadata still pass", async () => {
    const ok = await post("/v1/screen/async", { entity_value: "paypa1.com", metadata: { order: "A-1 😀", lines: [{ sku: "x", tags: ["a"] }] } });
    expect(ok.status, await ok.clone().text()).toBe(202);
    expect((await report({ description: "Ünïcödé 😀 text" })).status).toBe(202);
    expect((await get("/v1/history?type=domain")).status).toBe(200);
  });
});
