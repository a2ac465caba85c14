/**
 * How close is close enough, in one place. Short names collide with ordinary words and with
 * each other, so the allowance grows with the length of the brand token.
 */

import { PERMUTATION_TECHNIQUES, type PermutationTechnique } from "./permutations.js";

/** Typo permutations shorter than this are dropped: four letters are too often another word ("gmail" → "mail"). */
export const MIN_PERMUTATION_LENGTH = 5;

const ALL: ReadonlySet<PermutationTechnique> = new Set(PERMUTATION_TECHNIQUES);
/**
 * Five-letter tokens: a neighbouring key, an extra letter or a flipped bit turns "gmail" and
 * "ymail" into the names of real mail providers ("fmail", "hmail", "cmail", "amail"), so only
 * slips that keep every letter (swaps, doubles, vowels, a hyphen) and look-alikes count.
 */
const FIVE: ReadonlySet<PermutationTechnique> = new Set(["homoglyph", "transposition", "repetition", "vowel-swap", "hyphenation"]);
/** Four-letter and ordinary-word tokens: only look-alike characters ("app1e"), never typos. */
const VISUAL: ReadonlySet<PermutationTechnique> = new Set(["homoglyph"]);
const NONE: ReadonlySet<PermutationTechnique> = new Set();

/** Which dnstwist fuzzers to precompute for a token. */
export function permutationTechniques(tokenLength: number, short: boolean): ReadonlySet<PermutationTechnique> {
  if (tokenLength < 4) return NONE;
  if (short || tokenLength === 4) return VISUAL;
  return tokenLength === 5 ? FIVE : ALL;
}

/**
 * Edit distance allowed between a label and a brand token, by token length: none below six
 * (five-letter tokens are within one edit of too many words, "mail" of "gmail", "bingo" of
 * "bingx"), one for 6–10, two from eleven. Two edits on nine or ten letters reached real
 * businesses in the free-mail list: "centurylink" (centrelink), "realmail" (royalmail),
 * "coinlink" (chainlink), "w3internet" (btinternet).
 */
export function allowedEdits(tokenLength: number): 0 | 1 | 2 {
  if (tokenLength >= 11) return 2;
  if (tokenLength >= 6) return 1;
  return 0;
}

/** Closeness → strength: one edit on a long token is as good as a copy; two edits clearly less. */
export function closeness(distance: number, tokenLength: number): number {
  if (distance <= 0) return 1;
  if (distance === 1) return tokenLength >= 8 ? 1 : tokenLength >= 6 ? 0.95 : tokenLength === 5 ? 0.85 : 0.8;
  // Two edits are allowed from eleven letters on, where at most a fifth of the name changes and
  // it stays recognisable ("myetherwalet" → "myetherwallet"): just `high` alone.
  return distance === 2 && tokenLength >= 11 ? 0.87 : 0.75;
}

/** Country codes marketed as generic names (.io, .co, .ai ...): a brand on them is treated like one on .xyz. */
export const GENERIC_COUNTRY_CODES: ReadonlySet<string> = new Set(["io", "co", "me", "ai", "tv", "cc", "ws", "gg", "to", "sh", "ly", "la", "fm", "so", "pw", "vc"]);
/** Same name, other TLD: strong on a generic TLD, weaker on a country code a brand may well own. */
export const TLD_SWAP_STRENGTH = { generic: 0.8, countryCode: 0.5 } as const;
/** A typo that changes the first letter (not to a look-alike character): below `high` without other evidence. */
export const FIRST_LETTER_FACTOR = 0.8;
/** A look-alike found in one hyphen-separated part rather than the whole label. */
export const PART_FACTOR = 0.85;
/** Ordinary-word ("short") tokens are weaker evidence than distinctive ones. */
export const SHORT_TOKEN_FACTOR = 0.85;
/**
 * A brand's name written as a word of its own beside another, joined by a hyphen, in a name that
 * is not the brand's (`binance-trade.com`, `asia-coinbase.net`), or glued to a word that makes it
 * read as the brand's own site or app (`metamaskonline.com`): combosquatting even when the other
 * word is not on the lure list. Just `high` alone (70 × 0.93 = 65); a name glued to any other word
 * (`localethereum`) stays the weaker brand-in-name signal, since compounds arise innocently.
 */
export const HYPHENATED_COMBO_STRENGTH = 0.93;
/** A name built from other ordinary words the way the brand's is ("metacask", "openspa"): medium alone (word-swap.ts). */
export const WORD_SWAP_FACTOR = 0.8;
