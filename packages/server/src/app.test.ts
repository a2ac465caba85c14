import { AuditRecordSchema, BatchResponseSchema, GraphResponseSchema, HistoryResponseSchema, ProblemSchema, ReportAcceptedSchema, VerdictSchema } from "@svc/contracts";
import { createHash } from "node:crypto";
import { canonicalJson } from "@svc/core";
import { formatApiKey } from "@svc/server-ports";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApi, type TestApi } from "./test-support.js";

const engines = (["pglite", "postgres"] as const).filter((e) => e === "pglite" || process.env.TEST_DATABASE_URL);

describe.each(engines)("HTTP API v1 on %s", (engine) => {
  let api: TestApi;
  let key = "";
  let accountId = "";
  beforeAll(async () => {
    api = await startTestApi(engine);
    ({ key, accountId } = await api.account("pro"));
  }, 120_000);
  afterAll(async () => api?.close());

  const post = (path: string, body: unknown, headers: Record<string, string> = {}, k = key) =>
    api.app.request(path, { method: "POST", headers: { "content-type": "application/json", "x-api-key": k, ...headers }, body: typeof body === "string" ? body : JSON.stringify(body) });
  const get = (path: string, k = key) => api.app.request(path, { headers: { "x-api-key": k } });
  const expectProblem = async (res: Response, status: number, code: string) => {
    expect(res.status).toBe(status);
    expect(res.headers.get("content-type")).toContain("application/problem+json");
    expect(res.headers.get("x-request-id")).toBeTruthy();
    const body = ProblemSchema.parse(await res.json());
    expect(body.code).toBe(code);
    expect(body.status).toBe(status);
    expect(body.detail.length).toBeGreaterThan(5);
    expect(JSON.stringify(body)).not.toMatch(/at .*\.ts:\d+|SELECT|INSERT/);
    return body;
  };

  describe("POST /v1/screen", () => {
    it("answers a full verdict and stores its audit record first", async () => {
      const res = await post("/v1/screen", { entity_value: "paypa1.com" });
      expect(res.status).toBe(200);
      expect(res.headers.get("x-request-id")).toBeTruthy();
      expect(res.headers.get("ratelimit-limit")).toBe("1500");
      const v = VerdictSchema.parse(await res.json());
      expect(v).toMatchObject({ entity: { type: "domain", value: "paypa1.com" }, risk_level: "high" });
      expect(v.signals[0]?.code).toBe("domain.lookalike_brand");
      const audit = await get(`/v1/audit/${v.id}`);
      expect(audit.status).toBe(200);
      const rec = AuditRecordSchema.parse(await audit.json());
      expect(rec.verdict).toEqual(v);
      expect(rec.actor.channel).toBe("api");
      expect(rec.record_hash).toMatch(/^[0-9a-f]{64}$/);
    });

    it.each([
      ["malformed JSON", "{", 400, "request.malformed_json"],
      ["missing entity_value", {}, 422, "request.invalid"],
      ["empty entity_value", { entity_value: "" }, 422, "request.invalid"],
      ["wrong type of entity_value", { entity_value: 42 }, 422, "request.invalid"],
      ["unknown field", { entity_value: "a.com", colour: "red" }, 422, "request.invalid"],
      ["unknown type", { entity_value: "a.com", type: "website" }, 422, "request.invalid"],
      ["a type that contradicts the value", { entity_value: "https://x.com/a", type: "domain" }, 422, "entity.type_mismatch"],
      ["unrecognised value", { entity_value: "hello there" }, 422, "entity.unrecognized"],
      ["NUL byte", { entity_value: "pay\u0000pal.com" }, 422, "entity.invalid"],
      ["control characters", { entity_value: "pay\u0007pal.com" }, 422, "entity.invalid"],
      ["an array body", [1, 2], 422, "request.invalid"],
    ])("%s → %s %s", async (_name, body, status, code) => {
      const p = await expectProblem(await post("/v1/screen", body), status as number, code as string);
      if (status === 422) expect(p.errors?.[0]?.pointer).toMatch(/^\//);
    });

    it("refuses a non-JSON content type with 415", async () => {
      const res = await api.app.request("/v1/screen", { method: "POST", headers: { "content-type": "text/plain", "x-api-key": key }, body: "paypa1.com" });
      await expectProblem(res, 415, "request.unsupported_media_type");
    });

    it("refuses a 10 MB body with 413 without storing anything", async () => {
      const before = (await (await get("/v1/history?limit=100")).json()) as { items: unknown[] };
      const huge = JSON.stringify({ entity_value: "a".repeat(10 * 1024 * 1024) });
      await expectProblem(await post("/v1/screen", huge), 413, "request.too_large");
      const after = (await (await get("/v1/history?limit=100")).json()) as { items: unknown[] };
      expect(after.items.length).toBe(before.items.length);
    });
  });

  describe("keys", () => {
    it.each([
      ["missing", undefined, "auth.missing_key"],
      ["malformed", "not-a-key", "auth.invalid_key"],
      ["bad checksum", "svc_live_" + "A".repeat(38), "auth.invalid_key"],
    ])("%s key → 401", async (_n, k, code) => {
      const res = await api.app.request("/v1/history", { headers: k ? { "x-api-key": k } : {} });
      await expectProblem(res, 401, code);
    });
    it("an unknown well-formed key and a revoked key are refused", async () => {
      const other = await api.account();
      expect((await get("/v1/history", other.key)).status).toBe(200);
      await api.runtime.services.keys.revoke(other.accountId, other.keyId, new Date());
      await expectProblem(await get("/v1/history", other.key), 401, "auth.revoked_key");
      await expectProblem(await get("/v1/history", formatApiKey(new Uint8Array(32).fill(7))), 401, "auth.invalid_key");
    });
    it("public routes need no key", async () => {
      expect((await api.app.request("/healthz")).status).toBe(200);
      expect((await api.app.request("/readyz")).status).toBe(200);
      expect((await api.app.request("/v1/openapi.json")).status).toBe(200);
      expect((await api.app.request("/docs")).status).toBe(200);
    });
  });

  describe("limits", () => {
    it("rate-limits per minute with RateLimit-* and Retry-After, a batch of N costing N", { timeout: 30_000 }, async () => {
      // The window is the clock's minute: start well inside one so the 31 checks share it.
      const intoMinute = api.runtime.services.clock.now().getTime() % 60_000;
      if (intoMinute > 45_000) await new Promise((r) => setTimeout(r, 60_500 - intoMinute));
      const free = await api.account("free");
      const batch = await post("/v1/screen/batch", { entities: Array.from({ length: 29 }, (_, i) => `site${i}.example.com`) }, {}, free.key);
      expect(batch.status).toBe(200);
      expect(batch.headers.get("ratelimit-remaining")).toBe("1");
      expect((await post("/v1/screen", { entity_value: "a.com" }, {}, free.key)).status).toBe(200);
      const res = await post("/v1/screen", { entity_value: "b.com" }, {}, free.key);
      await expectProblem(res, 429, "rate_limited");
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(res.headers.get("ratelimit-remaining")).toBe("0");
    });
    it("enforces the monthly quota", async () => {
      const free = await api.account("free");
      const now = api.runtime.services.clock.now();
      const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
      await api.runtime.services.usage.hit(`key:${free.keyId}`, "month", month, 1000, 1000);
      await expectProblem(await post("/v1/screen", { entity_value: "a.com" }, {}, free.key), 429, "quota_exceeded");
    });
  });

  describe("batch", () => {
    it("keeps input order, reports per-item errors and evaluates duplicates once", async () => {
      const res = await post("/v1/screen/batch", { entities: ["paypa1.com", "not an entity", { entity_value: "PAYPA1.com" }, { entity_value: "8.8.8.8", type: "ip_address" }] });
      expect(res.status).toBe(200);
      const b = BatchResponseSchema.parse(await res.json());
      expect(b.results.map((r) => r.status)).toEqual(["ok", "error", "ok", "ok"]);
      expect(b.results[1]?.error?.code).toBe("entity.unrecognized");
      expect(b.results[0]?.result?.id).toBe(b.results[2]?.result?.id);
      expect(b.summary).toMatchObject({ total: 4, ok: 3, error: 1, unique: 2 });
    });
    it("answers each verdict in the text its audit record was sealed with, as a single check does", async () => {
      const res = await post("/v1/screen/batch", { entities: ["metamask-io.claim-airdrop.xyz", "not an entity", "green-books.it"] });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain("application/json");
      const text = await res.text();
      const b = BatchResponseSchema.parse(JSON.parse(text));
      for (const r of b.results) {
        if (r.status === "error") continue;
        // The canonical text (sorted keys) the record's hash covers, not a second serialisation.
        expect(text).toContain(`"result":${canonicalJson(r.result)}`);
        const audit = AuditRecordSchema.parse(await (await get(`/v1/audit/${r.result?.id}`)).json());
        expect(audit.verdict).toEqual(r.result);
      }
    });
    it.each([[0], [101]])("%i entities → 422", async (n) => {
      await expectProblem(await post("/v1/screen/batch", { entities: Array.from({ length: n }, (_, i) => `s${i}.com`) }), 422, "request.invalid");
    });
  });

  describe("idempotency", () => {
    it("replays the first response, refuses another body, and a different key is a new request", async () => {
      const a = (await (await post("/v1/screen", { entity_value: "idem.example.com" }, { "idempotency-key": "k-1" })).json()) as { id: string };
      const b = await post("/v1/screen", { entity_value: "idem.example.com" }, { "idempotency-key": "k-1" });
      expect(b.headers.get("idempotent-replayed")).toBe("true");
      expect(await b.json()).toEqual(a);
      await expectProblem(await post("/v1/screen", { entity_value: "other.example.com" }, { "idempotency-key": "k-1" }), 422, "idempotency.mismatch");
      const c = (await (await post("/v1/screen", { entity_value: "idem.example.com" }, { "idempotency-key": "k-2" })).json()) as { id: string };
      expect(c.id).not.toBe(a.id);
    });
    it("answers 409 while the same key is in flight", async () => {
      const hash = createHash("sha256").update(`POST /v1/screen\n${canonicalJson({ entity_value: "a.com" })}`).digest("hex");
      await api.runtime.services.idempotency.begin(accountId, "k-busy", hash, new Date());
      await expectProblem(await post("/v1/screen", { entity_value: "a.com" }, { "idempotency-key": "k-busy" }), 409, "idempotency.in_flight");
    });
    it("concurrent duplicates with one key produce one check", async () => {
      const results = await Promise.all(Array.from({ length: 5 }, () => post("/v1/screen", { entity_value: "race.example.com" }, { "idempotency-key": "k-race" })));
      const ok = await Promise.all(results.filter((r) => r.status === 200).map((r) => r.json() as Promise<{ id: string }>));
      expect(new Set(ok.map((v) => v.id)).size).toBe(1);
      expect(results.every((r) => r.status === 200 || r.status === 409)).toBe(true);
    });
  });

  describe("history, audit and export", () => {
    it("pages history newest first, only the caller's own", async () => {
      const me = await api.account();
      for (const d of ["h1.example.com", "h2.example.com", "h3.example.com"]) expect((await post("/v1/screen", { entity_value: d }, {}, me.key)).status).toBe(200);
      const p1 = HistoryResponseSchema.parse(await (await get("/v1/history?limit=2", me.key)).json());
      expect(p1.items.map((i) => i.entity.value)).toEqual(["h3.example.com", "h2.example.com"]);
      const p2 = HistoryResponseSchema.parse(await (await get(`/v1/history?limit=2&cursor=${encodeURIComponent(p1.next_cursor!)}`, me.key)).json());
      expect(p2.items.map((i) => i.entity.value)).toEqual(["h1.example.com"]);
      expect(p2.next_cursor).toBeNull();
      await expectProblem(await get("/v1/history?cursor=garbage", me.key), 422, "request.invalid_cursor");
      await expectProblem(await get("/v1/history?limit=1000", me.key), 422, "request.invalid");
    });
    it("another account's audit id is 404 and shows nothing", async () => {
      const other = await api.account();
      const v = (await (await post("/v1/screen", { entity_value: "secret.example.com" }, {}, other.key)).json()) as { id: string };
      const res = await get(`/v1/audit/${v.id}`);
      const body = await expectProblem(res, 404, "audit.not_found");
      expect(JSON.stringify(body)).not.toContain("secret.example.com");
      await expectProblem(await get("/v1/audit/chk_unknown"), 404, "audit.not_found");
    });
    it("the audit chain verifies, and an edited record is detected", async () => {
      const me = await api.account();
      for (const d of ["c1.example.com", "c2.example.com"]) await post("/v1/screen", { entity_value: d }, {}, me.key);
      expect((await api.runtime.services.checks.verifyChain(me.accountId)).ok).toBe(true);
    });
    it("exports CSV with formula injection escaped and filters", async () => {
      const me = await api.account();
      expect((await post("/v1/screen", { entity_value: "=cmd.example.com" }, {}, me.key)).status).toBe(422);
      await post("/v1/screen", { entity_value: "https://example.com/=HYPERLINK(1)" }, {}, me.key);
      await post("/v1/screen", { entity_value: "paypa1.com" }, {}, me.key);
      const res = await get("/v1/audit/export", me.key);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain("text/csv");
      const csv = await res.text();
      const lines = csv.trim().split("\r\n");
      expect(lines[0]).toContain("id,created_at,entity_type,entity_value");
      expect(lines).toHaveLength(3);
      expect(csv).not.toMatch(/(^|,)=HYPERLINK/m);
      expect(lines[2]).toMatch(/,domain,paypa1\.com,\d+,high,[a-z]+,review,domain\.lookalike_brand[^,]*,/);
      const high = await (await get("/v1/audit/export?risk_level=high", me.key)).text();
      expect(high.trim().split("\r\n")).toHaveLength(2);
      // Nothing to export: the header alone.
      const none = await (await get("/v1/audit/export", (await api.account()).key)).text();
      expect(none).toBe(`${lines[0]}\r\n`);
      await expectProblem(await get("/v1/audit/export?since=2026-11-02T00:00:00Z&until=2026-11-01T00:00:00Z", me.key), 422, "request.invalid_range");
    });
  });

  describe("reports and graph", () => {
    it("accepts a report, counts one per reporter, and feeds later checks", async () => {
      const res = await post("/v1/report", { entity_value: "quietmeadowbakery.com", category: "phishing", description: "fake shop" });
      expect(res.status).toBe(202);
      const accepted = ReportAcceptedSchema.parse(await res.json());
      expect(accepted).toMatchObject({ status: "received", moderation_status: "unverified", entity: { id: "domain:quietmeadowbakery.com" } });
      await post("/v1/report", { entity_value: "quietmeadowbakery.com", category: "phishing" });
      // It counts once the operator confirms it (reports.test.ts covers the queue).
      const operator = await api.account("pro", "operator");
      expect((await post(`/v1/reports/${accepted.id}/confirm`, {}, {}, operator.key)).status).toBe(200);
      const v = VerdictSchema.parse(await (await post("/v1/screen", { entity_value: "quietmeadowbakery.com" })).json());
      const sig = v.signals.find((s) => s.code === "reports.community");
      expect(sig?.evidence).toMatchObject({ reporters: 1 });
    });
    it("reports cannot push an allowlisted official domain up", async () => {
      for (let i = 0; i < 3; i++) {
        const r = await api.account();
        await post("/v1/report", { entity_value: "paypal.com", category: "phishing" }, {}, r.key);
      }
      const v = VerdictSchema.parse(await (await post("/v1/screen", { entity_value: "paypal.com" })).json());
      expect(v.risk_level).toBe("low");
    });
    it.each([
      [{ entity_value: "a.com", category: "nonsense" }, 422, "request.invalid"],
      [{ entity_value: "not an entity", category: "scam" }, 422, "entity.unrecognized"],
      [{ entity_value: "a.com", category: "scam", check_id: "chk_nope" }, 404, "audit.not_found"],
      [{ entity_value: "a.com", category: "scam", related_entities: ["??"] }, 422, "entity.unrecognized"],
      [{ entity_value: "a.com", category: "scam", evidence_urls: ["not a url"] }, 422, "request.invalid"],
    ])("bad report %j → %i", async (body, status, code) => {
      await expectProblem(await post("/v1/report", body), status, code);
    });
    it("walks the graph built from checks and reports", async () => {
      await post("/v1/screen", { entity_value: "https://login.graph-test.example.net/x" });
      const filed = ReportAcceptedSchema.parse(await (await post("/v1/report", { entity_value: "graph-test.example.net", category: "scam", related_entities: ["0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"] })).json());
      // A report's related entities enter the graph when it is confirmed.
      expect((await post(`/v1/reports/${filed.id}/confirm`, {}, {}, (await api.account("pro", "operator")).key)).status).toBe(200);
      await api.runtime.services.background.drain();
      const res = await get(`/v1/graph/domain/${encodeURIComponent("graph-test.example.net")}?depth=2`);
      expect(res.status).toBe(200);
      const g = GraphResponseSchema.parse(await res.json());
      expect(g.root).toBe("domain:graph-test.example.net");
      const ids = g.nodes.map((n) => n.id);
      expect(ids).toContain("domain:login.graph-test.example.net");
      expect(ids).toContain("wallet:0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed");
    });
    it.each(["depth=0", "depth=10", "max_nodes=501"])("graph %s → 422", async (q) => {
      await expectProblem(await get(`/v1/graph/domain/example.com?${q}`), 422, "request.invalid");
    });
    it("graph with a value that is not of the type → 422", async () => {
      await expectProblem(await get(`/v1/graph/wallet/example.com`), 422, "entity.type_mismatch");
    });
  });

  it("unknown routes are problem+json 404", async () => {
    await expectProblem(await get("/v1/nope"), 404, "not_found");
  });
});
