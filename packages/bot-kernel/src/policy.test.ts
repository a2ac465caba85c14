import { describe, expect, it } from "vitest";
import { makeVerdict } from "./in-memory-screening.js";
import { assess, decide, type Action, type Assessed } from "./policy.js";
import type { Policy } from "./settings.js";

const entity = { type: "domain" as const, value: "paypa1.com", id: "domain:paypa1.com" };
const base: Assessed = { entity, verdict: null, blockPattern: null, allowlisted: false, linkMismatch: null, error: null };
const v = (level: "low" | "medium" | "high" | "critical"): Assessed => ({ ...base, verdict: makeVerdict("paypa1.com", level, "Looks like paypal.com") });

describe("assess", () => {
  it.each<[string, Assessed, RegExp | null]>([
    ["low verdict", v("low"), null],
    ["medium verdict", v("medium"), null],
    ["high verdict", v("high"), /^high risk \(75\/100\): Looks like paypal.com$/u],
    ["critical verdict", v("critical"), /^critical risk/u],
    ["blocklist beats a low verdict", { ...v("low"), blockPattern: "*.com" }, /blocklist pattern "\*\.com"/u],
    ["blocklist beats the allowlist", { ...base, allowlisted: true, blockPattern: "paypa1*" }, /blocklist/u],
    ["allowlist clears a high verdict", { ...v("high"), allowlisted: true }, null],
    ["deceptive link text alone is strong", { ...v("low"), linkMismatch: { shown: "paypal.com" } }, /link text shows paypal.com/u],
    ["a screening error concludes nothing", { ...base, error: "screening.unavailable" }, null],
  ])("%s", (_, a, reason) => {
    const f = assess(a);
    if (reason === null) expect(f).toBeNull();
    else expect(f?.reason).toMatch(reason);
  });
});

describe("assess: the reason quoted", () => {
  it("is a rule's finding, not the learned model's reading of the name, when the rule found something of weight", () => {
    const made = makeVerdict("secure-login-paypal.com.verify-account.xyz", "critical", "unused");
    const sig = made.signals[0]!;
    const verdict = {
      ...made,
      signals: [
        { ...sig, code: "domain.model_risk", points: 98, message: "Learned name model: scores the name 98 of 100" },
        { ...sig, code: "domain.brand_embedding", points: 80, message: "Shows paypal.com in the name, but the site is really verify-account.xyz" },
      ],
    };
    expect(assess({ ...base, verdict })?.reason).toBe(`critical risk (${made.risk_score}/100): Shows paypal.com in the name, but the site is really verify-account.xyz`);
    expect(assess({ ...base, verdict: { ...verdict, signals: [verdict.signals[0]!, { ...sig, code: "domain.new_gtld", points: 8, message: "cheap TLD" }] } })?.reason).toMatch(/: Learned name model/u);
  });
});

describe("decide", () => {
  it.each<[Policy, boolean, boolean, Assessed[], Action, string | null]>([
    ["notify", false, false, [v("low")], "none", null],
    ["notify", false, false, [v("high")], "notify", null],
    ["delete", false, false, [v("high")], "delete", null],
    ["ban", false, false, [v("critical")], "ban", null],
    ["ban", false, false, [v("low"), v("critical")], "ban", null],
    // Trusted users are still checked; a stolen account is not banned outright.
    ["ban", true, false, [v("critical")], "delete", "ban"],
    ["delete", true, false, [v("critical")], "delete", null],
    ["notify", true, false, [v("high")], "notify", null],
    // Admins' messages get a warning only.
    ["ban", false, true, [v("critical")], "notify", "ban"],
    ["delete", false, true, [v("critical")], "notify", "delete"],
  ])("policy %s, trusted %s, admin %s", (policy, senderTrusted, senderIsAdmin, assessed, action, softenedFrom) => {
    const d = decide({ assessed, policy, senderTrusted, senderIsAdmin });
    expect(d.action).toBe(action);
    expect(d.softened?.from ?? null).toBe(softenedFrom);
  });
});
