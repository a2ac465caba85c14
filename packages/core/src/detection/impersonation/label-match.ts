import { unpackPermutation, type ImpersonationIndex } from "./build-index.js";
import type { EditTechnique } from "./describe.js";
import { boundedDamerauLevenshtein } from "./edit-distance.js";
import { closeness } from "./policy.js";
import { asciiMatchKey } from "./skeleton.js";
import { hashReplaced, hashString } from "../string-filter.js";

/** A string that imitates a brand token without being it. */
export interface TokenMatch {
  readonly id: number;
  readonly technique: EditTechnique;
  readonly distance: number;
  /** 0..1, closeness of the imitation. */
  readonly strength: number;
}

/** Unintended collisions (a flipped bit, an extra letter at the end) are weaker than deliberate look-alikes. */
const TECHNIQUE_FACTOR: Partial<Record<EditTechnique, number>> = { bitsquatting: 0.9, addition: 0.95 };

function mayBeSkeletonCopy(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x30 || c === 0x31 || (c === 0x72 && s.charCodeAt(i + 1) === 0x6e)) return true;
  }
  return false;
}

/**
 * `index.tokenIds.get(s)`, `h` being `hashString(s)`: the token filter answers for almost every
 * string, which is no token.
 */
export function tokenIdOf(s: string, index: ImpersonationIndex, h: number = hashString(s)): number | undefined {
  return index.tokenFilter.mayContainHash(h) ? index.tokenIds.get(s) : undefined;
}

/**
 * Looks up one lower-case ASCII string as an imitation of a brand token, cheapest check first:
 * the precomputed dnstwist permutations (one hash lookup), the skeleton (several look-alike
 * characters at once, "rnicr0soft"), then the symmetric-deletion edit-distance index.
 * Exact tokens and ordinary words never match; short tokens only through look-alike characters.
 * `editDistance: false` skips the last step, for strings the caller also checks another way.
 */
export function fuzzyTokenMatch(s: string, index: ImpersonationIndex, editDistance = true, h?: number): TokenMatch | null {
  if (s.length < 4) return null;
  // The filter spares the three map lookups below for the many strings that are none of these.
  // (`h`: the caller's `hashString(s)`, when it has it.)
  const named = index.namedStrings.mayContainHash(h ?? hashString(s));
  if (named && (index.tokenIds.has(s) || index.commonWords.has(s))) return null;
  const packed = named ? index.permutations.get(s) : undefined;
  if (packed !== undefined) {
    const { id, technique } = unpackPermutation(packed);
    const token = (index.tokens[id] as { token: string }).token;
    const distance = boundedDamerauLevenshtein(s, token, 3);
    const base = technique === "homoglyph" ? 1 : closeness(1, token.length);
    return { id, technique, distance, strength: base * (TECHNIQUE_FACTOR[technique] ?? 1) };
  }
  // In [a-z0-9-] only "0", "1", "i" and "m" have another skeleton; single swaps are permutations
  // already, so the skeleton only adds combinations, which need a digit or an "rn".
  const sid = mayBeSkeletonCopy(s) && index.skeletonFilter.mayContainHash(hashReplaced(s, index.asciiKeyHashes)) ? index.skeletons.get(asciiMatchKey(s, index.asciiKeys)) : undefined;
  if (sid !== undefined) {
    const token = (index.tokens[sid] as { token: string }).token;
    return { id: sid, technique: "homoglyph", distance: boundedDamerauLevenshtein(s, token, 9), strength: 1 };
  }
  const near = editDistance ? index.nearTokens.nearest(s) : null;
  if (near) {
    const token = (index.tokens[near.id] as { token: string }).token;
    return { id: near.id, technique: "edit-distance", distance: near.distance, strength: closeness(near.distance, token.length) };
  }
  return null;
}
