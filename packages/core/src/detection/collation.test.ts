import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { collationCompare } from "./collation.js";

const icu = new Intl.Collator().compare;
const codeChars = fc.constantFrom(..."_-.0123456789abcdefghijklmnopqrstuvwxyz");
const code = fc.array(codeChars, { minLength: 0, maxLength: 12 }).map((cs) => cs.join(""));

describe("collationCompare: Intl.Collator's order without ICU", () => {
  test.prop([code, code], { numRuns: 20_000 })("signal codes and source names", (a, b) => {
    expect(collationCompare(a, b)).toBe(Math.sign(icu(a, b)));
  });
  test.prop([fc.string(), fc.string()], { numRuns: 5_000 })("any other string, through a collator", (a, b) => {
    expect(Math.sign(collationCompare(a, b))).toBe(Math.sign(icu(a, b)));
  });
  it("sorts real codes as localeCompare does", () => {
    const codes = ["domain.lookalike_brand", "domain.look-alike", "domain.model_risk", "domain.new_gtld", "domain.many_hyphens", "intel.blocklisted_parent", "intel.blocklisted", "domain.crypto_term", "coverage.nothing_known", "feed-phishtank", "feed_x", "feed.x", "svc-curated", "Ünïcode", "domain.Model"];
    expect([...codes].sort(collationCompare)).toEqual([...codes].sort((a, b) => a.localeCompare(b)));
  });
});
