import { describe, expect, it } from "vitest";
import { detectImpersonation } from "./index.js";
import { parse, testIndex } from "./test-support.js";
import { wordSwapNames } from "./word-swap.js";

const WORDS = new Set(["meta", "mask", "cask", "mast", "masks", "open", "sea", "spa", "see", "seas", "pay", "pal", "pan", "bat", "cat"]);

describe("names built from other words the way a brand's is", () => {
  it("keeps one word of a two-word name and swaps the other for a word one edit away", () => {
    const names = wordSwapNames(["metamask", "opensea"], WORDS);
    expect([...names].sort()).toEqual(["metacask", "metamast", "openspa", "opensee"].sort());
  });

  it("leaves out inflections of the brand's own word and the tokens themselves", () => {
    const names = wordSwapNames(["metamask", "opensea"], WORDS);
    expect(names.has("metamasks")).toBe(false); // plural of "mask": still the brand's name
    expect(names.has("openseas")).toBe(false);
    expect(wordSwapNames(["paypal", "paypan"], WORDS).has("paypan")).toBe(false); // a token is never a swap of another
  });

  it("needs both halves of the brand's name to be words", () => {
    expect(wordSwapNames(["binance"], WORDS).size).toBe(0);
  });

  const lookalike = (input: string) => detectImpersonation(parse(input), testIndex()).find((f) => f.code === "domain.lookalike_brand");

  it.each(["metacask.com", "openspa.info", "opensee.io", "metamast.com"])("%s is a weaker look-alike (medium alone)", (input) => {
    const f = lookalike(input);
    expect(f?.evidence).toMatchObject({ word_swap: true });
    expect((f?.strength ?? 1) * 75).toBeLessThan(65);
  });

  it.each(["metamsak.io", "rnetamask.io", "metamasks.com", "opnsea.io", "paysstack.com", "capitallone.com", "coinbaser.com", "wealthsimpler.com"])("%s is a misspelling or inflection, still a full look-alike", (input) => {
    const f = lookalike(input);
    expect(f).toBeDefined();
    expect(f?.evidence.word_swap).toBeUndefined();
  });

  it("an ordinary-word name whose misspellings count (blockchain): typos are look-alikes, its inflections and word swaps are not full ones", () => {
    expect(lookalike("blockchein.com")?.evidence).toMatchObject({ brand: "blockchaincom", token: "blockchain" });
    expect(lookalike("blockchains.com")).toBeUndefined(); // the plural of an ordinary word is an ordinary word
    expect(lookalike("blockchair.com")?.evidence).toMatchObject({ word_swap: true }); // "chair" for "chain", even though r/n look alike
  });
});
