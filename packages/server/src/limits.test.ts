import { ProblemSchema, UsageResponseSchema } from "@svc/contracts";
import { fixedClock } from "@svc/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "./app.js";
import { ADMIN_ACCOUNT_ID, bootstrapAdmin } from "./bootstrap.js";
import { ConfigError, DEFAULT_PLANS, isKnownPlan, loadConfig } from "@svc/runtime";
import { startTestApi, type TestApi } from "./test-support.js";

describe("SVC_PLANS", () => {
  const load = (SVC_PLANS: string) => loadConfig({ SVC_PLANS });
  const failure = (SVC_PLANS: string): string => {
    try {
      load(SVC_PLANS);
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      return (e as Error).message;
    }
    throw new Error("accepted");
  };

  it("defaults to free, starter, pro and an unlimited operator plan", () => {
    expect(loadConfig({}).SVC_PLANS).toEqual(DEFAULT_PLANS);
    expect(DEFAULT_PLANS).toMatchObject({ free: { per_minute: 30, per_month: 1000 }, starter: { per_minute: 300, per_month: 50_000 }, pro: { per_minute: 1500, per_month: 500_000 }, operator: { per_minute: null, per_month: null } });
  });

  it("overrides and adds plans; null is unlimited; plan names are validated against them", () => {
    const plans = load('{"free": {"per_minute": 60}, "team": {"per_minute": 600, "per_month": null}}').SVC_PLANS;
    expect(plans.free).toEqual({ per_minute: 60, per_month: 1000 });
    expect(plans.team).toEqual({ per_minute: 600, per_month: null });
    expect(plans.pro).toEqual(DEFAULT_PLANS.pro);
    expect(isKnownPlan(plans, "team")).toBe(true);
    expect(isKnownPlan(plans, "gold")).toBe(false);
    expect(isKnownPlan(plans, "toString")).toBe(false);
  });

  it.each([
    ["not JSON", "{free", /SVC_PLANS: must be JSON/],
    ["a negative limit", '{"free": {"per_minute": -1}}', /SVC_PLANS\.free\.per_minute/],
    ["a fractional limit", '{"free": {"per_month": 1.5}}', /SVC_PLANS\.free\.per_month/],
    ["an unknown field", '{"free": {"per_hour": 5}}', /SVC_PLANS\.free/],
    ["a bad plan name", '{"Gold Plan": {"per_minute": 5, "per_month": 5}}', /SVC_PLANS\.Gold Plan: plan names/],
    ["a new plan without both limits", '{"team": {"per_minute": 5}}', /SVC_PLANS\.team: a new plan needs both/],
    ["an array", "[1]", /SVC_PLANS/],
  ])("stops on %s, naming the variable", (_n, value, message) => {
    expect(failure(value)).toMatch(message);
  });
});

const engines = (["pglite", "postgres"] as const).filter((e) => e === "pglite" || process.env.TEST_DATABASE_URL);
const PLANS = JSON.stringify({ tiny: { per_minute: 5, per_month: 8 }, burst: { per_minute: 30, per_month: 100_000 }, free: { per_minute: 3 } });

describe.each(engines)("plans, usage and charging on %s", (engine) => {
  let api: TestApi;
  const clock = fixedClock("2026-11-20T10:00:10.000Z");
  beforeAll(async () => {
    api = await startTestApi(engine, { SVC_PLANS: PLANS }, { clock });
  }, 120_000);
  afterAll(async () => api?.close());

  const post = (path: string, body: unknown, k: string, app = api.app) =>
    app.request(path, { method: "POST", headers: { "content-type": "application/json", "x-api-key": k }, body: JSON.stringify(body) });
  const usage = async (k: string) => UsageResponseSchema.parse(await (await api.app.request("/v1/usage", { headers: { "x-api-key": k } })).json());
  const problemOf = async (res: Response, status: number, code: string) => {
    expect(res.status).toBe(status);
    const p = ProblemSchema.parse(await res.json());
    expect(p.code).toBe(code);
    return p;
  };
  const headers = (res: Response) => ["limit", "remaining", "reset"].map((h) => res.headers.get(`ratelimit-${h}`));
  /** A fresh minute for each test: the clock moves on two minutes. */
  const nextMinute = () => clock.advance(120_000);

  it("GET /v1/usage reports the plan, its limits and what the key used", async () => {
    nextMinute();
    const { key } = await api.account("tiny");
    expect(await usage(key)).toEqual({
      plan: "tiny", limits: { per_minute: 5, per_month: 8 },
      minute: { used: 0, remaining: 5, reset: 0 },
      month: { used: 0, remaining: 8, period_start: "2026-11-01T00:00:00.000Z", period_end: "2026-12-01T00:00:00.000Z" },
    });
    expect((await post("/v1/screen", { entity_value: "paypa1.com" }, key)).status).toBe(200);
    clock.advance(2_000);
    const batch = await post("/v1/screen/batch", { entities: ["a-shop.example.com", "not an entity", "b-shop.example.com"] }, key);
    expect(batch.status).toBe(200);
    // The entity that got no verdict is refunded: the batch cost 2.
    expect(headers(batch)).toEqual(["5", "2", "61"]);
    const u = await usage(key);
    expect(u.minute).toEqual({ used: 3, remaining: 2, reset: 61 });
    expect(u.month).toMatchObject({ used: 3, remaining: 5 });
  });

  it("refuses a batch larger than the per-minute limit as non-retryable, charging nothing", async () => {
    nextMinute();
    const { key } = await api.account("tiny");
    const res = await post("/v1/screen/batch", { entities: Array.from({ length: 6 }, (_, i) => `shop${i}.example.com`) }, key);
    const p = await problemOf(res, 422, "rate_limit.exceeds_plan");
    expect(p.retryable).toBe(false);
    expect(p.detail).toContain("5 checks per minute");
    expect(res.headers.get("retry-after")).toBeNull();
    expect(headers(res)).toEqual(["5", "5", "0"]);
    expect((await usage(key)).month.used).toBe(0);
  });

  it("does not charge an invalid entity (422) or a failure of ours (500); errors carry RateLimit-*", async () => {
    nextMinute();
    const { key } = await api.account("tiny");
    const bad = await post("/v1/screen", { entity_value: "hello there" }, key);
    await problemOf(bad, 422, "entity.unrecognized");
    expect(headers(bad)).toEqual(["5", "5", "0"]);
    const s = api.runtime.services;
    const broken = createApp({ ...s, screening: { ...s.screening, ids: { next: () => { throw new Error("id source down"); } } } });
    const failed = await post("/v1/screen", { entity_value: "paypa1.com" }, key, broken);
    await problemOf(failed, 500, "internal");
    expect(headers(failed)).toEqual(["5", "5", "0"]);
    const failedBatch = await post("/v1/screen/batch", { entities: ["paypa1.com", "a-shop.example.com"] }, key, broken);
    expect(failedBatch.status).toBe(500);
    expect((await usage(key)).minute?.used).toBe(0);
    expect((await usage(key)).month.used).toBe(0);
    // Validation errors, unknown routes and reads carry the headers too.
    await problemOf(await post("/v1/screen", { colour: "red" }, key), 422, "request.invalid");
    for (const res of [await post("/v1/screen", {}, key), await api.app.request("/v1/audit/chk_nope", { headers: { "x-api-key": key } }), await api.app.request("/v1/history", { headers: { "x-api-key": key } })]) {
      expect(headers(res)).toEqual(["5", "5", "0"]);
    }
  });

  it("a quota refusal does not consume the minute, and a rate refusal does not consume the month", async () => {
    nextMinute();
    const { key } = await api.account("tiny");
    // 5 checks fill the minute; the 6th is rate-limited and the month still says 5.
    for (let i = 0; i < 5; i++) expect((await post("/v1/screen", { entity_value: `shop${i}.example.com` }, key)).status).toBe(200);
    const limited = await post("/v1/screen", { entity_value: "shop5.example.com" }, key);
    await problemOf(limited, 429, "rate_limited");
    expect(Number(limited.headers.get("retry-after"))).toBe(61);
    expect((await usage(key)).month.used).toBe(5);
    nextMinute();
    // 3 more use the month's 8; the 9th is refused for the quota and leaves the minute at 3.
    for (let i = 0; i < 3; i++) expect((await post("/v1/screen", { entity_value: `more${i}.example.com` }, key)).status).toBe(200);
    const quota = await post("/v1/screen", { entity_value: "more3.example.com" }, key);
    const p = await problemOf(quota, 429, "quota_exceeded");
    expect(p.detail).toContain("8 checks a month");
    expect(headers(quota)).toEqual(["5", "2", "61"]);
    const u = await usage(key);
    expect(u.minute?.used).toBe(3);
    expect(u.month).toMatchObject({ used: 8, remaining: 0 });
  });

  it("a request the month cannot hold is quota_exceeded even while the minute is full, not promised a retry in 61 s", async () => {
    nextMinute();
    const { key } = await api.account("tiny");
    for (let i = 0; i < 5; i++) expect((await post("/v1/screen", { entity_value: `fill${i}.example.com` }, key)).status).toBe(200);
    // The month has 3 of 8 left: a batch of 4 never fits this month; one of 3 fits after the minute.
    const never = await post("/v1/screen/batch", { entities: ["w1.example.com", "w2.example.com", "w3.example.com", "w4.example.com"] }, key);
    const p = await problemOf(never, 429, "quota_exceeded");
    expect(p.detail).toBe("The tiny plan includes 8 checks a month and 3 are left; this request costs 4. Upgrade the plan or wait for the next month.");
    expect(Number(never.headers.get("retry-after"))).toBeGreaterThan(61);
    expect(headers(never)).toEqual(["5", "0", "61"]);
    await problemOf(await post("/v1/screen/batch", { entities: ["w1.example.com", "w2.example.com", "w3.example.com"] }, key), 429, "rate_limited");
    expect((await usage(key)).month.used).toBe(5);
  });

  it("lets at most the limit through in any 60 seconds across a minute boundary (sliding window)", async () => {
    clock.set("2026-11-20T11:00:59.000Z");
    const { key } = await api.account("tiny");
    for (let i = 0; i < 5; i++) expect((await post("/v1/screen", { entity_value: `edge${i}.example.com` }, key)).status).toBe(200);
    // A fixed window would start afresh at 11:01:00 and let 5 more through.
    clock.set("2026-11-20T11:01:01.000Z");
    const refused = await post("/v1/screen", { entity_value: "edge5.example.com" }, key);
    await problemOf(refused, 429, "rate_limited");
    expect(Number(refused.headers.get("retry-after"))).toBe(59);
    clock.set("2026-11-20T11:02:00.000Z");
    expect((await post("/v1/screen", { entity_value: "edge6.example.com" }, key)).status).toBe(200);
  });

  it("lets exactly the limit through when 200 requests arrive at once", { timeout: 60_000 }, async () => {
    clock.set("2026-11-20T12:00:10.000Z");
    const { key } = await api.account("burst");
    const all = await Promise.all(Array.from({ length: 200 }, (_, i) => post("/v1/screen", { entity_value: `c${i}.example.com` }, key)));
    expect(all.filter((r) => r.status === 200)).toHaveLength(30);
    expect(all.filter((r) => r.status === 429)).toHaveLength(170);
    expect(await usage(key)).toMatchObject({ minute: { used: 30, remaining: 0 }, month: { used: 30 } });
  });

  it("gives the operator plan (the bootstrap admin's) no per-minute cap", async () => {
    nextMinute();
    await bootstrapAdmin(api.runtime.services, undefined);
    expect((await api.runtime.services.accounts.get(ADMIN_ACCOUNT_ID))?.plan).toBe("operator");
    const { key } = await api.account("operator", "operator");
    // Far beyond `free` (3 a minute here): nothing refused, nothing to report in headers.
    const batch = await post("/v1/screen/batch", { entities: Array.from({ length: 100 }, (_, i) => `op${i}.example.com`) }, key);
    expect(batch.status).toBe(200);
    expect(batch.headers.get("ratelimit-limit")).toBeNull();
    expect((await post("/v1/screen", { entity_value: "op-more.example.com" }, key)).status).toBe(200);
    expect(await usage(key)).toMatchObject({ plan: "operator", limits: { per_minute: null, per_month: null }, minute: null, month: { used: 101, remaining: null } });
  });

  it("refuses a key whose plan is no longer configured, with 403 plan.unknown", async () => {
    const { key } = await api.account("retired");
    await problemOf(await post("/v1/screen", { entity_value: "paypa1.com" }, key), 403, "plan.unknown");
  });
});
