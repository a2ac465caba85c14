import { confusables } from "@svc/intel";
import { describe, expect, it } from "vitest";
import { scriptsOf } from "./scripts.js";
import { asciiFold, asciiKeyTable, asciiMatchKey, matchKey, skeleton } from "./skeleton.js";

describe("UTS #39 skeleton", () => {
  it.each([
    ["аpple", "apple"], // Cyrillic а
    ["раураl", "paypal"], // Cyrillic р, а, у
    ["paypa1", "paypal"], // digit one reads as l
    ["amazon", "arnazon"], // m's prototype is "rn"
  ])("skeleton(%s) = %s", (s, expected) => {
    expect(skeleton(s, confusables)).toBe(expected);
  });

  it("maps confusable strings to the same skeleton", () => {
    expect(skeleton("аpple", confusables)).toBe(skeleton("apple", confusables));
    expect(skeleton("rnicrosoft", confusables)).toBe(skeleton("microsoft", confusables));
  });
});

describe("match key", () => {
  it.each([
    ["аррӏе", "apple"], // palochka is "i" in the table; the key reads i and l alike
    ["paypál", "paypal"], // accents dropped
    ["g00gle", "google"], // "0" → "O" → lower case
    ["PayPal", "paypal"],
  ])("%s matches %s", (a, b) => {
    expect(matchKey(a, confusables)).toBe(matchKey(b, confusables));
  });

  it("the ASCII table gives the same keys as the full computation", () => {
    const table = asciiKeyTable(confusables);
    for (const s of ["paypa1", "rnicr0soft", "metamask", "a-b-c", "1inch"]) expect(asciiMatchKey(s, table)).toBe(matchKey(s, confusables));
  });
});

describe("ASCII folding of non-ASCII labels", () => {
  it.each([
    ["pаypall", "paypall"],
    ["gооgle", "google"],
    ["münchen", "munchen"],
    ["例え", null],
  ])("%s → %s", (s, expected) => {
    expect(asciiFold(s, confusables)).toBe(expected);
  });
});

describe("scripts", () => {
  it.each([
    ["аpple", ["Cyrillic", "Latin"]],
    ["apple", ["Latin"]],
    ["αpple-1", ["Greek", "Latin"]],
    ["例え", ["Han", "Hiragana"]],
    ["123-", []],
  ])("%s is written in %j", (s, expected) => {
    expect(scriptsOf(s)).toEqual(expected);
  });
});
