/**
 * How close is close enough, in one place. Short names collide with ordinary words and with
 * each other, so the allowance grows with the length of the brand token.
 */

/** Tokens shorter than this get no typo permutations, only visual (homoglyph) ones. */
export const MIN_TYPO_TOKEN_LENGTH = 5;

/** Typo permutations shorter than this are dropped: four letters are too often another word ("gmail" → "mail"). */
export const MIN_PERMUTATION_LENGTH = 5;

/**
 * Edit distance allowed between a label and a brand token, by token length: none below six
 * (five-letter tokens are within one edit of too many words and names, "bingx"/"bingo"; they still get
 * the dnstwist permutations, which only model plausible typos), one for 6–8, two from nine.
 */
export function allowedEdits(tokenLength: number): 0 | 1 | 2 {
  if (tokenLength >= 9) return 2;
  if (tokenLength >= 6) return 1;
  return 0;
}

/** Closeness → strength: one edit on a long token is as good as a copy; two edits clearly less. */
export function closeness(distance: number, tokenLength: number): number {
  if (distance <= 0) return 1;
  if (distance === 1) return tokenLength >= 8 ? 1 : tokenLength >= 6 ? 0.95 : tokenLength === 5 ? 0.85 : 0.8;
  return 0.75;
}

/** Strength of a brand name inside an unofficial name, without any lure word. */
export const BRAND_IN_NAME_STRENGTH = 0.6;
/** Strength of a brand name as a sub-domain label of an unofficial domain. */
export const BRAND_IN_SUBDOMAIN_STRENGTH = 0.55;
/** Same name, other TLD: strong on a generic TLD, weaker on a country code a brand may well own. */
export const TLD_SWAP_STRENGTH = { generic: 0.85, countryCode: 0.5 } as const;
/** A look-alike found in one hyphen-separated part rather than the whole label. */
export const PART_FACTOR = 0.85;
/** Ordinary-word ("short") tokens are weaker evidence than distinctive ones. */
export const SHORT_TOKEN_FACTOR = 0.85;
