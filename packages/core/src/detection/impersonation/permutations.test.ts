import { describe, expect, it } from "vitest";
import { keyboardNeighbours } from "./keyboard.js";
import { PERMUTATION_TECHNIQUES, permutationsOf } from "./permutations.js";

describe("keyboard neighbours", () => {
  it.each([
    ["q", ["1", "2", "w", "a"], ["p", "e"]],
    ["l", ["k", "o", "p", "m"], ["a", "q"]], // "m" sits next to "l" on AZERTY
    ["z", ["a", "s", "x", "e"], ["p"]], // QWERTY z, QWERTZ/AZERTY neighbours of z
  ])("%s touches %j, not %j", (key, yes, no) => {
    for (const k of yes) expect(keyboardNeighbours(key)).toContain(k);
    for (const k of no) expect(keyboardNeighbours(key)).not.toContain(k);
  });
});

describe("dnstwist permutations", () => {
  const paypal = permutationsOf("paypal");

  it.each([
    ["paypa1", "homoglyph"],
    ["paypai", "homoglyph"],
    ["pyapal", "transposition"],
    ["paypl", "omission"],
    ["ppaypal", "repetition"],
    ["paypol", "vowel-swap"],
    ["paypak", "replacement"],
    ["paypaol", "insertion"],
    ["paypalx", "addition"],
    ["pay-pal", "hyphenation"],
    ["raypal", "bitsquatting"],
  ])("paypal → %s by %s", (p, technique) => {
    expect(paypal.get(p)).toBe(technique);
  });

  it("collapses and expands look-alike letter pairs", () => {
    expect(permutationsOf("amazon").get("arnazon")).toBe("homoglyph");
    expect(permutationsOf("corn").get("com")).toBe("homoglyph");
    expect(permutationsOf("google").get("g00gle")).toBe("homoglyph");
  });

  it("only emits valid labels and never the token itself", () => {
    for (const token of ["paypal", "1inch", "office365", "metamask"]) {
      for (const p of permutationsOf(token).keys()) {
        expect(p).toMatch(/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/);
        expect(p).not.toContain("--");
        expect(p).not.toBe(token);
      }
    }
  });

  it("names a string by the earliest technique that makes it", () => {
    // "paypai" is also a replacement-free bit flip? No: l (0x6c) → i (0x69) is three bits. Homoglyph wins anyway.
    const order = new Map(PERMUTATION_TECHNIQUES.map((t, i) => [t, i]));
    expect(order.get("homoglyph")).toBe(0);
    expect(permutationsOf("google").get("goolge")).toBe("transposition");
  });

  it("visual-only keeps just the homoglyphs", () => {
    const visual = permutationsOf("nike", new Set(["homoglyph"]));
    expect(new Set(visual.values())).toEqual(new Set(["homoglyph"]));
    expect(visual.has("mike")).toBe(true);
    expect(visual.has("nikee")).toBe(false);
  });
});
