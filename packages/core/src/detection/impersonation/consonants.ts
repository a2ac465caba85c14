import type { ImpersonationIndex, TokenEntry } from "./build-index.js";
import type { Candidate } from "./candidate.js";
import { boundedDamerauLevenshtein } from "./edit-distance.js";
import { hashFinish, hashStep, StringFilter } from "../string-filter.js";

/**
 * Same consonants, other vowels and doubled letters: "meytherwellat", "myethrwelllet",
 * "myetharwolllet" all read as "myetherwallet" to someone skimming, and are three or four edits
 * from it, beyond what the edit-distance check allows. Readers take in the consonant outline of a
 * long name and skim its vowels, which is what these names rely on. Only long names count
 * (eleven letters or more, where two edits are allowed anyway; five consonants or more in the
 * outline): shorter ones share outlines with real names ("etherscene" and "etherscan"). The
 * first letter must be the brand's, and the whole name at most `MAX_EDITS` edits from it.
 */
export const MIN_TOKEN_LENGTH = 11;
const MIN_OUTLINE = 5;
const MAX_EDITS = 4;
/** Just `high` alone, like two edits on a long name. */
const STRENGTH = 0.87;

const isVowel = (c: number): boolean => c === 0x61 || c === 0x65 || c === 0x69 || c === 0x6f || c === 0x75 || c === 0x79;

/** The consonants of the letters of `s`, each run of one consonant written once ("myetherwallet" → "mthrwlt"). */
export function consonantOutline(s: string): string {
  let out = "";
  let last = -1;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x61 || c > 0x7a || isVowel(c)) continue;
    if (c !== last) out += s[i];
    last = c;
  }
  return out;
}

/**
 * `hashString(consonantOutline(s))`, without building the outline: most long labels have an
 * outline no brand has, and building it for each was a measurable part of a check.
 */
export function outlineHash(s: string): number {
  let h = 0;
  let last = -1;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x61 || c > 0x7a || isVowel(c)) continue;
    if (c !== last) h = hashStep(h, c);
    last = c;
  }
  return hashFinish(h);
}

/** Brand tokens by consonant outline, with what rules a label out before its outline is built. */
export interface OutlineIndex {
  /** Outline → token id. */
  readonly byOutline: ReadonlyMap<string, number>;
  /** The outlines, as a bit filter of their hashes. */
  readonly filter: StringFilter;
  /** Longest token with an outline: a label more than `MAX_EDITS` letters longer is too far from all of them. */
  readonly maxTokenLength: number;
}

/** Outline → token id, for distinctive tokens long enough; an outline two tokens share is left out. */
export function buildOutlineIndex(tokens: readonly TokenEntry[]): OutlineIndex {
  const out = new Map<string, number>();
  const shared = new Set<string>();
  tokens.forEach((t, id) => {
    if (t.short || t.token.length < MIN_TOKEN_LENGTH) return;
    const outline = consonantOutline(t.token);
    if (outline.length < MIN_OUTLINE) return;
    if (out.has(outline)) shared.add(outline);
    else out.set(outline, id);
  });
  for (const o of shared) out.delete(o);
  const filter = StringFilter.forCount(out.size);
  let maxTokenLength = 0;
  for (const [outline, id] of out) {
    filter.add(outline);
    maxTokenLength = Math.max(maxTokenLength, (tokens[id] as TokenEntry).token.length);
  }
  return { byOutline: out, filter, maxTokenLength };
}

/** True when `s` is English words of three letters or more run together ("virginmenu", "discovercrude"): a name, not a misspelling. */
export function madeOfWords(s: string, words: ReadonlySet<string>): boolean {
  // ends[i]: s.slice(0, i) splits into words.
  const ends: boolean[] = [true];
  for (let i = 1; i <= s.length; i++) {
    ends[i] = false;
    for (let j = Math.max(0, i - 20); j <= i - 3 && !ends[i]; j++) if (ends[j] && words.has(s.slice(j, i))) ends[i] = true;
  }
  return ends[s.length] === true;
}

/** A label (letters of it) with a brand token's consonant outline, its first letter and at most four edits from it. */
export function sameConsonants(seen: string, index: ImpersonationIndex): Candidate | null {
  const outlines = index.outlines;
  // The edit distance is at least the difference in length, so a much longer label cannot qualify.
  if (seen.length < MIN_TOKEN_LENGTH || seen.length > outlines.maxTokenLength + MAX_EDITS) return null;
  if (!outlines.filter.mayContainHash(outlineHash(seen))) return null;
  const id = outlines.byOutline.get(consonantOutline(seen));
  if (id === undefined) return null;
  const entry = index.tokens[id] as TokenEntry;
  if (seen === entry.token || seen.charCodeAt(0) !== entry.token.charCodeAt(0)) return null;
  const distance = boundedDamerauLevenshtein(seen, entry.token, MAX_EDITS);
  if (distance > MAX_EDITS || madeOfWords(seen, index.englishWords)) return null;
  return { entry, technique: "consonants", distance, strength: STRENGTH, seen, detail: `same consonants, other vowels or doubled letters: “${entry.token}” → “${seen}”` };
}
