import { describe, expect, it } from "vitest";
import { compileGlob, firstMatch, matchGlob, type Glob } from "./glob.js";

const g = (p: string): Glob => {
  const r = compileGlob(p);
  if (!r.ok) throw new Error(r.reason);
  return r.glob;
};

describe("safe glob matcher", () => {
  it.each<[string, string, boolean]>([
    ["*.top", "free-airdrop.top", true],
    ["*.top", "top", false],
    ["*.top", "example.topaz", false],
    ["*airdrop*", "https://claim-airdrop.example.com/x", true],
    ["*airdrop*", "https://example.com/", false],
    ["metamask-*.com", "metamask-verify.com", true],
    ["metamask-*.com", "metamask.com", false],
    ["paypa?.com", "paypa1.com", true],
    ["paypa?.com", "paypal.com", true],
    ["paypa?.com", "paypa.com", false],
    ["paypa?.com", "paypa11.com", false],
    ["PayPa1.COM", "paypa1.com", true],
    ["abc", "abc", true],
    ["abc", "abcd", false],
    ["a*b*c", "abc", true],
    ["a*b*c", "aXbXc", true],
    ["a*b*c", "acb", false],
    ["ab*ba", "aba", false],
    ["ab*ba", "abba", true],
    ["**x**y**z", "..x..y..z", true],
    ["*.xn--80ak6aa92e.com", "sub.xn--80ak6aa92e.com", true],
    ["0x1234*", "0x1234abcd", true],
    ["*wallet?connect*", "wallet-connect.app", true],
    ["ev(il).com", "ev(il).com", true],
    ["[abc].com", "a.com", false],
    ["ключ*", "ключи.рф", true],
    ["?люч*", "ключи.рф", true],
  ])("%j vs %j → %s", (pattern, text, expected) => {
    expect(matchGlob(g(pattern), text)).toBe(expected);
  });

  it.each<[string, RegExp]>([
    ["", /empty/u],
    ["*", /at least 3/u],
    ["?*?", /at least 3/u],
    ["a b.com", /spaces/u],
    ["x".repeat(129), /at most 128/u],
    ["evil\u0000.com", /control/u],
  ])("rejects %j", (pattern, reason) => {
    const r = compileGlob(pattern);
    expect(r.ok).toBe(false);
    expect((r as { reason: string }).reason).toMatch(reason);
  });

  it.each([
    ["*a*a*a*a*b", "a".repeat(200_000)],
    ["*a?a?a?a?a?a?a?a?b*", "a".repeat(200_000)],
    [`*${"a*".repeat(40)}b`, "a".repeat(100_000)],
    [`${"?".repeat(60)}*${"?a".repeat(30)}b`, "a".repeat(100_000)],
  ])("adversarial %j on long input finishes fast", (pattern, text) => {
    const started = performance.now();
    expect(matchGlob(g(pattern), text)).toBe(false);
    expect(performance.now() - started).toBeLessThan(250);
  });

  it("firstMatch returns the first pattern hitting any candidate", () => {
    const globs = [g("*.top"), g("*drainer*")];
    expect(firstMatch(globs, ["https://x.example/", "wallet-drainer.io"])?.source).toBe("*drainer*");
    expect(firstMatch(globs, ["example.org"])).toBeNull();
  });
});
