import { describe, expect, it } from "vitest";
import { createScreener } from "../screener.js";
import { systemClock } from "../system-clock.js";
import type { ReputationProvider } from "../ports/evidence.js";
import { screenEntity } from "./screen-entity.js";

const clock = { now: () => new Date("2026-11-01T12:00:00Z") };
let n = 0;
const ids = { next: (p: string) => `${p}_${String(++n).padStart(6, "0")}` };
const protectedAddresses = [{ address: "0x28c6c06298d514db089934071355e5743bf21d60", label: "Binance hot wallet 14" }];
const screener = createScreener({ clock, ids, protectedAddresses });

const screen = async (v: string) => {
  const r = await screener.screen(v);
  if (!r.ok) throw new Error(`${v}: ${r.error.code}`);
  return r.verdict;
};
const atLeast = (level: string, min: string) => ["low", "medium", "high", "critical"].indexOf(level) >= ["low", "medium", "high", "critical"].indexOf(min);

describe("screening outcomes a person can check", () => {
  it.each([
    ["paypa1.com", "domain.lookalike_brand"],
    ["xn--pple-43d.com", "domain.homograph"],
    ["metamask-io.claim-airdrop.xyz", "domain.brand_embedding"],
    ["google.com-secure-login.top", "domain.brand_embedding"],
    ["0x28c6a1b2c3d4e5f60718293a4b5c6d7e8f9a1d60", "wallet.address_poisoning"],
    ["x:@binance_support", "social.impersonation_decoration"],
    ["https://www.paypal.com@evil.example.net/login", "url.userinfo_brand"],
  ])("%s is high or above, explained by %s", async (value, code) => {
    const v = await screen(value);
    expect(atLeast(v.risk_level, "high"), `${value}: ${v.risk_score} ${v.risk_level}`).toBe(true);
    const top = v.signals[0]!;
    expect(v.signals.map((s) => s.code)).toContain(code);
    expect(top.points).toBeGreaterThan(0);
    expect(top.message.length).toBeGreaterThan(15);
    expect(top.source.name.length).toBeGreaterThan(0);
    expect(top.source.version).not.toBe("unknown");
  });

  it.each(["metamask.io", "paypal.com", "github.com", "www.paypal.com", "https://github.com/pricing"])("%s is low: an official domain", async (value) => {
    const v = await screen(value);
    expect(v.risk_level).toBe("low");
    expect(v.recommended_action).toBe("allow");
    expect(v.signals.map((s) => s.code)).toContain("intel.allowlisted");
  });

  it("a disposable-mail address is at least medium", async () => {
    expect(atLeast((await screen("someone@mailinator.com")).risk_level, "medium")).toBe(true);
  });

  it("a premium-rate number is flagged", async () => {
    const v = await screen("+1 900 555 0199");
    expect(v.signals.map((s) => s.code)).toContain("phone.premium_rate");
    expect(atLeast(v.risk_level, "medium")).toBe(true);
  });

  it("a brand on a free-mail account is flagged, and gmail.com does not vouch for its users", async () => {
    const v = await screen("binance.support@gmail.com");
    expect(v.signals.map((s) => s.code)).toContain("email.brand_on_free_mail");
    expect(v.signals.map((s) => s.code)).not.toContain("intel.allowlisted");
  });

  it("an unremarkable new domain is low with low confidence, and says nothing is known", async () => {
    const v = await screen("quietmeadowbakery.com");
    expect(v.risk_level).toBe("low");
    expect(v.confidence).toBe("low");
    expect(v.signals.find((s) => s.code === "coverage.nothing_known")).toMatchObject({ severity: "info", points: 0 });
  });

  it("returns the full verdict shape of the public contract", async () => {
    const v = await screen(" https://PAYPA1.com ");
    expect(v).toMatchObject({
      entity: { type: "url", value: "https://paypa1.com/", input: " https://PAYPA1.com ", id: "url:https://paypa1.com/" },
      policy: { ruleset: expect.any(String), thresholds: { review: 30, block: 85 } },
      evaluated_at: "2026-11-01T12:00:00.000Z",
      expires_at: "2026-11-02T12:00:00.000Z",
      coverage: { evaluated: expect.arrayContaining(["intel", "impersonation", "lexical"]), unavailable: [] },
    });
    expect(v.id).toMatch(/^chk_/);
    expect(v.disclaimer).toContain("not legal, financial or investment advice");
    expect(Number.isInteger(v.risk_score)).toBe(true);
  });

  it("a curated blocklist hit alone is critical", async () => {
    const s = createScreener({ clock, ids, intel: [{ type: "domain", value: "quietmeadowbakery.com", list: "block", label: "phishing", source: "test-feed", added_at: "2026-10-30T00:00:00Z" }] });
    const r = await s.screen("login.quietmeadowbakery.com");
    expect(r.ok && r.verdict.risk_level).toBe("critical");
    expect(r.ok && r.verdict.signals[0]?.code).toBe("intel.blocklisted_parent");
  });

  it("an unavailable source is listed, lowers confidence and is never read as clean", async () => {
    const down: ReputationProvider = { name: "rdap", types: ["domain"], check: () => Promise.reject(new Error("connection refused")) };
    const slow: ReputationProvider = { name: "dns", types: ["domain"], check: (_t, _v, signal) => new Promise((_, reject) => signal.addEventListener("abort", () => reject(new Error("aborted")))) };
    const base = createScreener({ clock, ids });
    const s = createScreener({ clock: systemClock, ids, deps: { providers: [down, slow], sourceTimeoutMs: 50 } });
    const r = await s.screen("quietmeadowbakery.com");
    const b = await base.screen("quietmeadowbakery.com");
    if (!r.ok || !b.ok) throw new Error("parse");
    expect(r.verdict.coverage.unavailable.map((u) => u.source).sort()).toEqual(["dns", "rdap"]);
    expect(r.verdict.confidence_score).toBeLessThan(b.verdict.confidence_score);
    expect(r.verdict.signals.filter((x) => x.code === "coverage.source_unavailable")).toHaveLength(2);
    expect(r.source_outcomes.find((o) => o.source === "dns")?.status).toBe("unavailable");
    expect(r.source_outcomes.find((o) => o.source === "rdap")?.status).toBe("error");
  });

  it("a brand's own site that also hosts its users' pages vouches for the apex only", async () => {
    const apex = await screener.screen("tumblr.com");
    if (!apex.ok) throw new Error("parse");
    expect(apex.verdict.risk_level).toBe("low");
    expect(apex.verdict.signals.map((x) => x.code)).toContain("intel.allowlisted");
    const user = await screener.screen("paypal-login-help.tumblr.com");
    if (!user.ok) throw new Error("parse");
    expect(user.verdict.signals.map((x) => x.code)).not.toContain("intel.allowlisted");
    expect(user.verdict.signals.some((x) => x.category === "impersonation" && x.points > 0)).toBe(true);
  });

  it("a store that hangs or throws at once is an outcome within the deadline, and later checks are unaffected", async () => {
    const official = createScreener({ clock, ids }).deps.intel;
    const hanging = { ...official, lookup: () => new Promise<never>(() => {}) };
    const throwing = { ...official, lookup: () => { throw new Error("store closed"); } };
    for (const [intel, status] of [[hanging, "unavailable"], [throwing, "error"]] as const) {
      const s = createScreener({ clock: systemClock, ids, intel, deps: { sourceTimeoutMs: 40 } });
      const started = Date.now();
      const r = await s.screen("quietmeadowbakery.com");
      if (!r.ok) throw new Error("parse");
      expect(Date.now() - started).toBeLessThan(1_000);
      expect(r.source_outcomes.find((o) => o.source === "intel")?.status).toBe(status);
      expect(r.verdict.coverage.unavailable.map((u) => u.source)).toContain("intel");
    }
    const again = await createScreener({ clock, ids }).screen("paypa1.com");
    expect(again.ok && again.source_outcomes.every((o) => o.status === "ok")).toBe(true);
  });

  it("the deadline is the clock's: a hanging provider is cancelled and unavailable when the clock's signal aborts, not before", async () => {
    // A clock whose deadlines abort only when the test says so: no real time involved.
    const asked: number[] = [];
    const controller = new AbortController();
    const manual = { now: () => new Date("2026-11-01T12:00:00Z"), deadline: (ms: number) => { asked.push(ms); return controller.signal; } };
    let cancelled = false;
    const hanging: ReputationProvider = { name: "dns", types: ["domain"], check: (_t, _v, signal) => new Promise((_, reject) => signal.addEventListener("abort", () => { cancelled = true; reject(new Error("aborted")); })) };
    const answering: ReputationProvider = { name: "rdap", types: ["domain"], check: () => Promise.resolve([]) };
    const s = createScreener({ clock: manual, ids, deps: { providers: [hanging, answering], sourceTimeoutMs: 1_234 } });
    let settled = false;
    const pending = s.screen("quietmeadowbakery.com").then((r) => { settled = true; return r; });
    for (let i = 0; i < 20; i++) await Promise.resolve();
    await new Promise((r) => setImmediate(r));
    expect(settled).toBe(false);
    expect(asked).toEqual([1_234]);
    controller.abort();
    const r = await pending;
    if (!r.ok) throw new Error("parse");
    expect(cancelled).toBe(true);
    expect(r.source_outcomes.find((o) => o.source === "dns")).toMatchObject({ status: "unavailable", reason: "timed out after 1234 ms" });
    expect(r.source_outcomes.find((o) => o.source === "rdap")?.status).toBe("ok");
    expect(r.verdict.coverage.unavailable.map((u) => u.source)).toEqual(["dns"]);
  });

  it("a clock that keeps no deadlines lets a slow source finish: its answer counts", async () => {
    const slow: ReputationProvider = { name: "dns", types: ["domain"], check: () => new Promise((resolve) => setTimeout(() => resolve([]), 30)) };
    const s = createScreener({ clock, ids, deps: { providers: [slow], sourceTimeoutMs: 1 } });
    const r = await s.screen("quietmeadowbakery.com");
    if (!r.ok) throw new Error("parse");
    expect(r.source_outcomes.find((o) => o.source === "dns")?.status).toBe("ok");
    expect(r.verdict.coverage.unavailable).toEqual([]);
  });

  it("in-memory intel (no promises, no deadlines) gives the same verdicts as the same intel behind an asynchronous store", async () => {
    const inMemory = createScreener({ clock, ids: { next: (p: string) => `${p}_same` }, protectedAddresses });
    const index = inMemory.deps.intel;
    const asynchronous = createScreener({ clock, ids: { next: (p: string) => `${p}_same` }, protectedAddresses, intel: { lookup: (e) => index.lookup(e), upsert: (r) => index.upsert(r), version: () => index.version() } });
    for (const v of ["paypa1.com", "metamask.io", "quietmeadowbakery.com", "https://www.paypal.com@evil.example.net/login", "binance.support@gmail.com", "0x28c6a1b2c3d4e5f60718293a4b5c6d7e8f9a1d60", "10.0.0.1", "+1 900 555 0199", "x:@binance_support"]) {
      const [a, b] = [await inMemory.screen(v), await asynchronous.screen(v)];
      if (!a.ok || !b.ok) throw new Error(v);
      expect({ ...a, source_outcomes: a.source_outcomes.map((o) => ({ ...o, ms: 0 })) }).toEqual({ ...b, source_outcomes: b.source_outcomes.map((o) => ({ ...o, ms: 0 })) });
    }
  });

  it("an in-memory store that throws is an error outcome, never clean", async () => {
    const index = createScreener({ clock, ids }).deps.intel as unknown as { lookupSync: unknown; versionSync: () => string };
    const broken = Object.assign(Object.create(Object.getPrototypeOf(index) as object) as object, index, { lookupSync: () => { throw new Error("index corrupted"); } });
    const r = await createScreener({ clock, ids, intel: broken as never }).screen("paypa1.com");
    if (!r.ok) throw new Error("parse");
    expect(r.source_outcomes).toEqual([{ source: "intel", status: "error", ms: 0, reason: "index corrupted" }]);
    expect(r.verdict.coverage.unavailable).toEqual([{ source: "intel", reason: "index corrupted" }]);
    expect(r.data_versions.intel).toBe("unavailable");
    expect(r.verdict.signals.map((s) => s.code)).toContain("coverage.source_unavailable");
  });

  it("explicit type mismatches and garbage come back as typed errors, never exceptions", async () => {
    const r = await screenEntity({ entity_value: "https://x.com/a", type: "domain" }, screener.deps);
    expect(!r.ok && r.error.code).toBe("entity.type_mismatch");
    const g = await screenEntity({ entity_value: 42 }, screener.deps);
    expect(!g.ok && g.error.code).toBe("entity.invalid_input");
  });

  it("batches evaluate duplicates once and keep input order", async () => {
    const items = await screener.screenBatch(["PayPa1.com", "nonsense value", "paypa1.com", { entity_value: "8.8.8.8" }]);
    expect(items.map((i) => i.status)).toEqual(["ok", "error", "ok", "ok"]);
    const [a, , b] = items;
    if (a?.status !== "ok" || b?.status !== "ok") throw new Error("expected ok");
    expect(a.result.verdict.id).toBe(b.result.verdict.id);
    expect(a.result.verdict.entity.input).toBe("PayPa1.com");
    expect(b.result.verdict.entity.input).toBe("paypa1.com");
  });

  it("is deterministic for the same inputs and clock", async () => {
    const a = await screen("metamask-io.claim-airdrop.xyz");
    const b = await screen("metamask-io.claim-airdrop.xyz");
    expect({ ...a, id: "" }).toEqual({ ...b, id: "" });
  });
});
