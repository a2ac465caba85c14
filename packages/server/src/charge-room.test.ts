import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedClock } from "@svc/testing";
import type { UsageCounter } from "@svc/server-ports";
import { createApp } from "./app.js";
import { ChargeRoom } from "./middleware/rate-limit.js";
import { startTestApi, type TestApi } from "./test-support.js";

describe("ChargeRoom", () => {
  it("fits a cost only when the key's last charge left that much room", () => {
    const room = new ChargeRoom();
    expect(room.fits("k1", 1)).toBe(false);
    room.note("k1", 3);
    expect([room.fits("k1", 1), room.fits("k1", 3), room.fits("k1", 4)]).toEqual([true, true, false]);
    room.note("k1", 0);
    expect(room.fits("k1", 1)).toBe(false);
    room.note("k2", Infinity);
    expect(room.fits("k2", 1_000_000)).toBe(true);
  });
});

const engines = (["pglite", "postgres"] as const).filter((e) => e === "pglite" || process.env.TEST_DATABASE_URL);
const PLANS = JSON.stringify({ tiny: { per_minute: 5, per_month: 8 } });

/**
 * Decision 0114: a key whose last charge left room has its entity screened while the charge is
 * taken; a key without room (or not seen yet) is charged first, so what a limit refuses costs no
 * screening, and nothing is written for a request the charge refuses.
 */
describe.each(engines)("screening beside the charge on %s", (engine) => {
  let api: TestApi;
  const clock = fixedClock("2026-11-20T10:00:10.000Z");
  const events: string[] = [];
  let app: ReturnType<typeof createApp>;

  beforeAll(async () => {
    api = await startTestApi(engine, { SVC_PLANS: PLANS }, { clock });
    const s = api.runtime.services;
    const intel = new Proxy(s.screening.intel, {
      get(target, p, receiver) {
        const v = Reflect.get(target, p, receiver) as unknown;
        if (typeof v !== "function") return v;
        return (...args: unknown[]) => {
          if (p === "lookup" || p === "lookupMany") events.push("read");
          return (v as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    const usage: UsageCounter = {
      hit: async (...args) => {
        const r = await s.usage.hit(...args);
        if (args[3] > 0) events.push(r.allowed ? "charged" : "refused");
        return r;
      },
      refund: (...args) => s.usage.refund(...args),
      purgeBefore: (...args) => s.usage.purgeBefore(...args),
    };
    app = createApp({ ...s, usage, screening: { ...s.screening, intel } });
  }, 120_000);
  afterAll(async () => api?.close());

  const post = (path: string, body: unknown, key: string) =>
    app.request(path, { method: "POST", headers: { "content-type": "application/json", "x-api-key": key }, body: JSON.stringify(body) });
  const history = async (key: string) => ((await (await app.request("/v1/history?limit=100", { headers: { "x-api-key": key } })).json()) as { items: unknown[] }).items.length;
  const monthUsed = async (key: string) => ((await (await app.request("/v1/usage", { headers: { "x-api-key": key } })).json()) as { month: { used: number } }).month.used;
  const reads = () => events.filter((e) => e === "read");

  it("screens a key's first request after its charge, and the next one while the charge is taken", async () => {
    clock.advance(120_000);
    const { key } = await api.account("pro");
    events.length = 0;
    expect((await post("/v1/screen", { entity_value: "first-shop.com" }, key)).status).toBe(200);
    expect(events).toEqual(["charged", "read"]);

    events.length = 0;
    expect((await post("/v1/screen", { entity_value: "second-shop.com" }, key)).status).toBe(200);
    // Screened before the charge was answered; charged first, the read would come after.
    expect(events).toEqual(["read", "charged"]);
    expect(await history(key)).toBe(2);
  });

  it("charges a key without room first: what the limit refuses is not screened and writes nothing", async () => {
    clock.advance(120_000);
    const { key } = await api.account("tiny");
    for (let i = 0; i < 5; i++) expect((await post("/v1/screen", { entity_value: `shop-${i}-shop.com` }, key)).status).toBe(200);
    events.length = 0;
    for (let i = 0; i < 3; i++) expect((await post("/v1/screen", { entity_value: `more-${i}-shop.com` }, key)).status).toBe(429);
    expect(reads()).toEqual([]);
    expect(await history(key)).toBe(5);
  });

  it("a request screened early that its charge refuses after all writes nothing and is not counted", async () => {
    clock.advance(120_000);
    const { key, keyId } = await api.account("tiny");
    expect((await post("/v1/screen", { entity_value: "one-shop.com" }, key)).status).toBe(200);
    // Behind this process's hint (room for 4 more), the month is used up elsewhere: 7 more of 8.
    const monthStart = new Date(Date.UTC(2026, 10, 1));
    expect((await api.runtime.services.usage.hit(`key:${keyId}`, "month", monthStart, 7, 8)).allowed).toBe(true);
    events.length = 0;
    const res = await post("/v1/screen", { entity_value: "two-shop.com" }, key);
    expect(res.status).toBe(429);
    expect(((await res.json()) as { code: string }).code).toBe("quota_exceeded");
    expect(reads()).toEqual(["read"]);
    expect(await history(key)).toBe(1);
    expect(await monthUsed(key)).toBe(8);
    // Now known to have no room: the next request is charged first and not screened.
    events.length = 0;
    expect((await post("/v1/screen", { entity_value: "three-shop.com" }, key)).status).toBe(429);
    expect(reads()).toEqual([]);
  });

  it("a batch is screened beside its charge only when the last charge left room for all of it", async () => {
    clock.advance(120_000);
    const { key } = await api.account("tiny");
    expect((await post("/v1/screen", { entity_value: "a-shop.com" }, key)).status).toBe(200);
    // Room for 4 (the minute's): a batch of 2 is screened before its charge is answered.
    events.length = 0;
    expect((await post("/v1/screen/batch", { entities: ["b1-shop.com", "b2-shop.com"] }, key)).status).toBe(200);
    expect(events.indexOf("read")).toBeGreaterThanOrEqual(0);
    expect(events.indexOf("read")).toBeLessThan(events.indexOf("charged"));
    // Room for 2: a batch of 3 is charged first, refused by the minute (3 + 3 > 5), and not screened.
    events.length = 0;
    expect((await post("/v1/screen/batch", { entities: ["c1-shop.com", "c2-shop.com", "c3-shop.com"] }, key)).status).toBe(429);
    expect(reads()).toEqual([]);
    expect(await history(key)).toBe(3);
  });
});
