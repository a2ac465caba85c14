import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RULESET, type Ruleset } from "./ruleset.js";
import { actionFor, insertionSort, riskLevelFor, scoreFindings } from "./scoring.js";
import type { Family, Finding } from "./types.js";

const now = new Date("2026-11-01T00:00:00Z");
const f = (code: string, family: Family, strength = 1, extra: Partial<Finding> = {}): Finding => ({ code, family, message: code, evidence: {}, source: { name: "test", version: "1" }, strength, ...extra });
const score = (findings: Finding[], evaluated: string[] = ["intel", "impersonation", "lexical"], unavailable: { source: string; reason: string }[] = []) =>
  scoreFindings(findings, { now, coverage: { evaluated, unavailable }, expectedFamilies: ["intel", "impersonation", "lexical", "reports", "graph", "reputation"] });

describe("scoring rules", () => {
  it("maps scores to levels and actions at the documented boundaries", () => {
    expect([0, 29, 30, 64, 65, 84, 85, 100].map(riskLevelFor)).toEqual(["low", "low", "medium", "medium", "high", "high", "critical", "critical"]);
    const t = RULESET.thresholds;
    // The medium band (30–64) is reviewed, not allowed (decision 0019).
    expect([29, 30, 64, 65, 84, 85].map((s) => actionFor(s, t))).toEqual(["allow", "review", "review", "review", "review", "block"]);
    expect(actionFor(50, { review: 40, block: 60 })).toBe("review");
  });

  it("no single weak (low or medium) signal can reach high on its own", () => {
    for (const [code, rule] of Object.entries(RULESET.rules)) {
      const r = score([f(code, "lexical")]);
      if (rule.points < 65) expect(r.risk_score, code).toBeLessThan(65);
    }
  });

  it("lexical evidence alone never reaches high, however much of it there is", () => {
    const lexical = Object.entries(RULESET.rules).filter(([, r]) => r.category === "lexical").map(([code]) => f(code, "lexical"));
    expect(lexical.length).toBeGreaterThan(8);
    const r = score(lexical);
    expect(r.risk_score).toBeLessThanOrEqual(RULESET.familyCaps.lexical ?? 100);
    expect(r.risk_level).not.toBe("high");
  });

  it("independent evidence accumulates across families", () => {
    const one = score([f("domain.brand_in_name", "impersonation")]).risk_score;
    const two = score([f("domain.brand_in_name", "impersonation"), f("domain.suspicious_tld", "lexical")]).risk_score;
    const three = score([f("domain.brand_in_name", "impersonation"), f("domain.suspicious_tld", "lexical"), f("reports.community", "reports")]).risk_score;
    expect(two).toBeGreaterThan(one);
    expect(three).toBeGreaterThan(two);
    expect(three).toBeGreaterThanOrEqual(65);
  });

  it("evidence within one family is damped (correlated)", () => {
    const a = score([f("domain.suspicious_tld", "lexical"), f("domain.risky_keyword", "lexical")]).risk_score;
    const b = score([f("domain.suspicious_tld", "lexical"), f("domain.risky_keyword", "impersonation")]).risk_score;
    expect(a).toBeLessThan(b);
  });

  it("a curated blocklist hit alone is critical with high confidence", () => {
    const r = score([f("intel.blocklisted", "intel", 1, { observed_at: "2026-10-01T00:00:00Z" })]);
    expect(r.risk_level).toBe("critical");
    expect(r.recommended_action).toBe("block");
    expect(r.confidence).toBe("high");
  });

  it("old blocklist entries weigh on confidence, not on the score", () => {
    const fresh = score([f("intel.blocklisted", "intel", 1, { observed_at: "2026-10-01T00:00:00Z" })]);
    const stale = score([f("intel.blocklisted", "intel", 1, { observed_at: "2023-01-01T00:00:00Z" })]);
    expect(stale.risk_score).toBe(fresh.risk_score);
    expect(stale.confidence_score).toBeLessThan(fresh.confidence_score);
  });

  it("a popular site's name evidence is overridden and its score capped; other evidence is capped too, a block-list entry is not", () => {
    const name = [f("domain.popular_site", "intel"), f("domain.model_risk", "model", 0.9), f("domain.lookalike_brand", "impersonation"), f("domain.suspicious_tld", "lexical")];
    const r = score(name);
    expect(r.risk_score).toBeLessThanOrEqual(RULESET.popularCeiling as number);
    expect(r.all_signals.find((s) => s.code === "domain.model_risk")?.points).toBe(0);
    expect(r.signals.map((s) => s.code)).toEqual(["domain.popular_site"]);
    expect(score([...name, f("reports.community", "reports")]).risk_score).toBeLessThanOrEqual(RULESET.popularCeiling as number);
    const listed = score([...name, f("intel.blocklisted", "intel")]);
    expect(listed.risk_level).toBe("critical");
    // Without the ceiling in the ruleset, popularity changes nothing.
    const noCeiling: Ruleset = { ...RULESET, popularCeiling: undefined };
    const plain = scoreFindings(name, { now, coverage: { evaluated: ["intel"], unavailable: [] }, expectedFamilies: ["intel"], ruleset: noCeiling });
    expect(plain.risk_score).toBeGreaterThanOrEqual(65);
  });

  it("allowlisted entities stay low whatever else fires; the overridden signals are kept at 0 points for the audit record, not given as reasons", () => {
    const r = score([f("intel.allowlisted", "intel"), f("domain.lookalike_brand", "impersonation"), f("domain.suspicious_tld", "lexical"), f("reports.community", "reports")]);
    expect(r.risk_level).toBe("low");
    expect(r.risk_score).toBeLessThanOrEqual(RULESET.allowlistedCeiling);
    expect(r.recommended_action).toBe("allow");
    expect(r.all_signals.every((s) => s.points === 0)).toBe(true);
    expect(r.all_signals.map((s) => s.code)).toContain("domain.lookalike_brand");
    expect(r.signals.map((s) => s.code)).toEqual(["intel.allowlisted"]);
  });

  it("nothing found gives low risk and low confidence", () => {
    const r = score([f("coverage.nothing_known", "intel")]);
    expect(r.risk_score).toBe(0);
    expect(r.confidence).toBe("low");
  });

  it("an unavailable source lowers confidence", () => {
    const base = score([f("domain.lookalike_brand", "impersonation")]);
    const less = score([f("domain.lookalike_brand", "impersonation")], ["intel", "impersonation", "lexical"], [{ source: "rdap", reason: "timeout" }]);
    expect(less.confidence_score).toBeLessThan(base.confidence_score);
    expect(less.risk_score).toBe(base.risk_score);
  });

  it("confidence grows with agreeing families", () => {
    const one = score([f("domain.lookalike_brand", "impersonation")]);
    const two = score([f("domain.lookalike_brand", "impersonation"), f("reports.community", "reports")]);
    expect(two.confidence_score).toBeGreaterThan(one.confidence_score);
  });

  it("strength scales points, and signals carry severity from their points", () => {
    const r = score([f("domain.lookalike_brand", "impersonation", 0.5)]);
    expect(r.signals[0]).toMatchObject({ points: 38, severity: "medium", category: "impersonation" });
  });

  it("is deterministic and order-independent", () => {
    const fs = [f("domain.suspicious_tld", "lexical"), f("domain.brand_in_name", "impersonation"), f("domain.risky_keyword", "lexical", 0.7)];
    expect(score(fs)).toEqual(score([...fs].reverse()));
  });

  it("uses the ruleset it is given", () => {
    const strict: Ruleset = { ...RULESET, version: "test", rules: { ...RULESET.rules, "domain.suspicious_tld": { points: 90, category: "lexical" } }, familyCaps: {} };
    const r = scoreFindings([f("domain.suspicious_tld", "lexical")], { now, coverage: { evaluated: [], unavailable: [] }, expectedFamilies: [], ruleset: strict });
    expect(r.risk_score).toBe(90);
  });
});

describe("insertionSort", () => {
  it("orders as the built-in (stable) sort does, ties kept in order", () => {
    fc.assert(
      fc.property(fc.array(fc.record({ key: fc.integer({ min: 0, max: 5 }), at: fc.nat() }), { maxLength: 30 }), (xs) => {
        const byKey = (a: { key: number }, b: { key: number }): number => b.key - a.key;
        const ours = [...xs];
        insertionSort(ours, byKey);
        expect(ours).toEqual([...xs].sort(byKey));
      }),
    );
  });
});
