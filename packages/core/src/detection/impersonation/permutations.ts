import { ASCII_HOMOGLYPHS, ASCII_PAIR_HOMOGLYPHS } from "./ascii-homoglyphs.js";
import { keyboardNeighbours } from "./keyboard.js";

/**
 * The dnstwist fuzzers that work on one label. Listed in order of preference: when two
 * fuzzers produce the same string, the earlier one names it (a "1" for an "l" is better
 * explained as a look-alike than as a slipped finger).
 */
export const PERMUTATION_TECHNIQUES = [
  "homoglyph",
  "transposition",
  "omission",
  "repetition",
  "vowel-swap",
  "replacement",
  "insertion",
  "addition",
  "hyphenation",
  "bitsquatting",
] as const;
export type PermutationTechnique = (typeof PERMUTATION_TECHNIQUES)[number];

const VOWELS = "aeiou";
const ADDITIONS = "abcdefghijklmnopqrstuvwxyz0123456789";

type Emit = (label: string, technique: PermutationTechnique) => void;

const splice = (s: string, at: number, remove: number, insert: string): string => s.slice(0, at) + insert + s.slice(at + remove);

/** Characters a registrable label may contain; tokens are [a-z0-9]+, so only a new character needs checking. */
const isLabelChar = (c: number): boolean => (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2d;

function homoglyphs(t: string, emit: Emit): void {
  for (let i = 0; i < t.length; i++) {
    for (const g of ASCII_HOMOGLYPHS.get(t[i] as string) ?? []) emit(splice(t, i, 1, g), "homoglyph");
    const pair = ASCII_PAIR_HOMOGLYPHS.get(t.slice(i, i + 2));
    if (pair !== undefined) emit(splice(t, i, 2, pair), "homoglyph");
  }
  // Every occurrence at once ("g00gle", "faceb00k"): one look, one decision for the reader.
  for (const ch of new Set(t)) {
    const first = ASCII_HOMOGLYPHS.get(ch)?.[0];
    if (first !== undefined && t.indexOf(ch) !== t.lastIndexOf(ch)) emit(t.split(ch).join(first), "homoglyph");
  }
}

function transpositions(t: string, emit: Emit): void {
  for (let i = 0; i + 1 < t.length; i++) {
    if (t[i] !== t[i + 1]) emit(t.slice(0, i) + t[i + 1] + t[i] + t.slice(i + 2), "transposition");
  }
}

function omissions(t: string, emit: Emit): void {
  for (let i = 0; i < t.length; i++) emit(splice(t, i, 1, ""), "omission");
}

function repetitions(t: string, emit: Emit): void {
  for (let i = 0; i < t.length; i++) emit(splice(t, i, 0, t[i] as string), "repetition");
}

function vowelSwaps(t: string, emit: Emit): void {
  for (let i = 0; i < t.length; i++) {
    if (!VOWELS.includes(t[i] as string)) continue;
    for (const v of VOWELS) if (v !== t[i]) emit(splice(t, i, 1, v), "vowel-swap");
  }
}

function replacements(t: string, emit: Emit): void {
  for (let i = 0; i < t.length; i++) for (const k of keyboardNeighbours(t[i] as string)) emit(splice(t, i, 1, k), "replacement");
}

function insertions(t: string, emit: Emit): void {
  for (let i = 0; i < t.length; i++) {
    for (const k of keyboardNeighbours(t[i] as string)) {
      emit(splice(t, i, 0, k), "insertion");
      emit(splice(t, i + 1, 0, k), "insertion");
    }
  }
}

function additions(t: string, emit: Emit): void {
  for (const c of ADDITIONS) emit(t + c, "addition");
}

function hyphenations(t: string, emit: Emit): void {
  for (let i = 1; i < t.length; i++) emit(splice(t, i, 0, "-"), "hyphenation");
}

/** One flipped bit in memory or on the wire turns a valid name into a neighbouring one. */
function bitsquats(t: string, emit: Emit): void {
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    for (let bit = 0; bit < 8; bit++) {
      const flipped = c ^ (1 << bit);
      const edge = i === 0 || i === t.length - 1;
      if (isLabelChar(flipped) && !(edge && flipped === 0x2d)) emit(splice(t, i, 1, String.fromCharCode(flipped)), "bitsquatting");
    }
  }
}

const FUZZERS: Readonly<Record<PermutationTechnique, (t: string, emit: Emit) => void>> = {
  homoglyph: homoglyphs,
  transposition: transpositions,
  omission: omissions,
  repetition: repetitions,
  "vowel-swap": vowelSwaps,
  replacement: replacements,
  insertion: insertions,
  addition: additions,
  hyphenation: hyphenations,
  bitsquatting: bitsquats,
};

/**
 * Calls `emit` with every label one step of the given dnstwist fuzzers away from `token` (a
 * lower-case [a-z0-9] brand token), and the fuzzer that made it. May emit a label more than
 * once and may emit the token itself (a swap of equal letters); the caller keeps the first and
 * skips the token. Callback rather than generator: this runs ~150,000 times at start-up.
 */
export function forEachPermutation(token: string, techniques: ReadonlySet<PermutationTechnique>, emit: Emit): void {
  for (const technique of PERMUTATION_TECHNIQUES) if (techniques.has(technique)) FUZZERS[technique](token, emit);
}

/** All permutations of `token` with the technique that names each (for tests and tools). */
export function permutationsOf(token: string, techniques: ReadonlySet<PermutationTechnique> = new Set(PERMUTATION_TECHNIQUES)): Map<string, PermutationTechnique> {
  const out = new Map<string, PermutationTechnique>();
  forEachPermutation(token, techniques, (p, t) => {
    if (p !== token && !out.has(p)) out.set(p, t);
  });
  return out;
}
