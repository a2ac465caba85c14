import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { unpackPermutation, type ImpersonationIndex } from "./impersonation/build-index.js";
import { boundedDamerauLevenshtein } from "./impersonation/edit-distance.js";
import { fuzzyTokenMatch, type TokenMatch } from "./impersonation/label-match.js";
import { closeness } from "./impersonation/policy.js";
import { asciiMatchKey } from "./impersonation/skeleton.js";
import { hashReplaced, hashString, replacementHashes, StringFilter } from "./string-filter.js";
import { testIndex } from "./impersonation/test-support.js";

const label = fc.stringMatching(/^[a-z0-9-]{0,24}$/);
const unicodeish = fc.string({ unit: "binary", maxLength: 16 });

describe("StringFilter", () => {
  it("never rules out a member", () =>
    fc.assert(
      fc.property(fc.uniqueArray(unicodeish, { maxLength: 300 }), (members) => {
        const f = StringFilter.forCount(members.length);
        for (const m of members) f.add(m);
        for (const m of members) expect(f.mayContainHash(hashString(m))).toBe(true);
      }),
      { numRuns: 200 },
    ));

  it("rules out most non-members", () => {
    const f = StringFilter.forCount(10_000);
    for (let i = 0; i < 10_000; i++) f.add(`member${i}`);
    let passed = 0;
    for (let i = 0; i < 10_000; i++) if (f.mayContainHash(hashString(`other${i}`))) passed++;
    expect(passed).toBeLessThan(300);
  });

  it("hashes a replaced string without building it", () => {
    const index = testIndex();
    const table = replacementHashes(index.asciiKeys);
    fc.assert(
      fc.property(fc.oneof(label, unicodeish), (s) => {
        expect(hashReplaced(s, table)).toBe(hashString(asciiMatchKey(s, index.asciiKeys)));
      }),
      { numRuns: 2000 },
    );
  });
});

const UNINTENDED: Readonly<Record<string, number>> = { bitsquatting: 0.9, addition: 0.95 };

/** `fuzzyTokenMatch` as it was before the filters: every map asked directly. */
function unfilteredMatch(s: string, index: ImpersonationIndex, editDistance = true): TokenMatch | null {
  if (s.length < 4 || index.tokenIds.has(s) || index.commonWords.has(s)) return null;
  const packed = index.permutations.get(s);
  if (packed !== undefined) {
    const { id, technique } = unpackPermutation(packed);
    const token = (index.tokens[id] as { token: string }).token;
    const distance = boundedDamerauLevenshtein(s, token, 3);
    const base = technique === "homoglyph" ? 1 : closeness(1, token.length);
    return { id, technique, distance, strength: base * (UNINTENDED[technique] ?? 1) };
  }
  const sid = index.skeletons.get(asciiMatchKey(s, index.asciiKeys));
  if (sid !== undefined && /[01]|rn/.test(s)) {
    const token = (index.tokens[sid] as { token: string }).token;
    return { id: sid, technique: "homoglyph", distance: boundedDamerauLevenshtein(s, token, 9), strength: 1 };
  }
  const near = editDistance ? index.nearTokens.nearest(s) : null;
  if (!near) return null;
  const token = (index.tokens[near.id] as { token: string }).token;
  return { id: near.id, technique: "edit-distance", distance: near.distance, strength: closeness(near.distance, token.length) };
}

describe("fuzzyTokenMatch behind the filters", () => {
  const index = testIndex();
  const tokens = index.tokens.map((t) => t.token);
  const permutations = [...index.permutations.keys()];
  const skeletonish = tokens.map((t) => t.replaceAll("l", "1").replaceAll("o", "0").replaceAll("m", "rn"));
  // Brand tokens with a random edit, permutations, skeleton copies and random labels.
  const edited = fc.tuple(fc.constantFrom(...tokens), fc.nat(), fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz0123456789-"), fc.nat(3)).map(([t, at, c, op]) => {
    const i = at % (t.length + 1);
    return op === 0 ? t.slice(0, i) + c + t.slice(i) : op === 1 ? t.slice(0, i) + t.slice(i + 1) : op === 2 ? t.slice(0, i) + c + t.slice(i + 1) : t;
  });
  const query = fc.oneof(edited, fc.nat(permutations.length - 1).map((i) => permutations[i] as string), fc.constantFrom(...skeletonish), label);

  it("finds what the unfiltered lookup finds", () =>
    fc.assert(
      fc.property(query, fc.boolean(), (s, ed) => {
        expect(fuzzyTokenMatch(s, index, ed)).toEqual(unfilteredMatch(s, index, ed));
      }),
      { numRuns: 5000 },
    ));
});
