import { brands, confusables, dataVersions } from "@svc/intel";
import { describe, expect, it } from "vitest";
import { buildImpersonationIndex, unpackPermutation } from "./build-index.js";
import { COMMON_WORDS } from "./common-words.js";
import { tokenIdOf } from "./label-match.js";

describe("buildImpersonationIndex", () => {
  it("builds the full brand data in well under 1.5 s of CPU", () => {
    const before = process.cpuUsage();
    const index = buildImpersonationIndex(brands, confusables);
    const used = process.cpuUsage(before);
    expect((used.user + used.system) / 1000).toBeLessThan(1500);
    expect(index.tokens.length).toBeGreaterThan(600);
    expect(index.permutations.size).toBeGreaterThan(100_000);
  });

  const index = buildImpersonationIndex(brands, confusables);

  it("records the brand data version on every finding source", () => {
    expect(index.source).toEqual({ name: "brands", version: dataVersions["svc/brands"] });
    expect(buildImpersonationIndex(brands.slice(0, 3), confusables, { version: "test" }).source.version).toBe("test");
  });

  it("never stores a brand token or an ordinary word as a permutation", () => {
    for (const b of brands) for (const t of b.tokens) expect(index.permutations.has(t), t).toBe(false);
    for (const w of COMMON_WORDS) expect(index.permutations.has(w), w).toBe(false);
  });

  it("packs token and technique into one number", () => {
    const { id, technique } = unpackPermutation(index.permutations.get("paypa1") as number);
    expect(index.tokens[id]?.token).toBe("paypal");
    expect(technique).toBe("homoglyph");
  });

  it("gives ordinary-word tokens only look-alike characters, and nothing to three-letter ones", () => {
    const owner = (p: string) => {
      const packed = index.permutations.get(p);
      return packed === undefined ? undefined : index.tokens[unpackPermutation(packed).id]?.token;
    };
    expect(owner("app1e")).toBe("apple");
    expect(owner("applle")).toBeUndefined(); // a typo of a word is another word's business
    expect(owner("up5")).toBeUndefined();
  });

  it("targets each token at the official domain named like it", () => {
    const target = (t: string) => index.tokens[index.tokenIds.get(t) as number]?.target;
    expect(target("paypal")).toBe("paypal.com");
    expect(target("icloud")).toBe("icloud.com");
    expect(target("metamask")).toBe("metamask.io");
  });

  it("accepts its own keyword list", () => {
    const own = buildImpersonationIndex(brands, confusables, { keywords: [{ keyword: "zzzlure", weight: 1 }] });
    expect(own.keywords.has("zzzlure")).toBe(true);
    expect(own.keywords.has("login")).toBe(false);
  });
});

describe("the token filter", () => {
  it("never rules out a token: tokenIdOf answers as the token map does, for every token, permutation and ordinary word", () => {
    const index = buildImpersonationIndex(brands, confusables);
    const strings = [...index.tokenIds.keys(), ...[...index.tokenIds.keys()].flatMap((t) => [`${t}s`, t.slice(1), `x${t}`, t.replaceAll("a", "4")]), ...index.commonWords, ...COMMON_WORDS, "secure", "login", "wallet", "paypa1", ""];
    for (const p of index.permutations.keys()) strings.push(p);
    for (const s of strings) expect(tokenIdOf(s, index)).toBe(index.tokenIds.get(s));
  });
});
