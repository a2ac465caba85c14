import type { ImpersonationIndex, TokenEntry } from "./build-index.js";
import { fromMatch, type Candidate } from "./candidate.js";
import { fuzzyTokenMatch } from "./label-match.js";

const isLetter = (c: number): boolean => c >= 0x61 && c <= 0x7a;

/** `s` without its digits, or null when it has none. */
export function stripDigits(s: string): string | null {
  let out: string | null = null;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39) out ??= s.slice(0, i);
    else if (out !== null) out += s[i];
  }
  return out;
}

/**
 * Digits sprinkled into a name: "pay22pal" is PayPal with digits inserted; "metamask2024x"
 * read without its digits is a typo of MetaMask. Digits only at an end ("paypal2024") are the
 * name plus a number, which brand-parts reports as the brand in a name.
 */
export function digitsInside(bare: string, label: string, index: ImpersonationIndex): Candidate | null {
  const letters = stripDigits(bare);
  if (letters === null || letters.length < 6) return null;
  const id = index.tokenIds.get(letters);
  if (id === undefined) return fromMatch(fuzzyTokenMatch(letters, index), letters, index, 0.9, ", digits added");
  const entry = index.tokens[id] as TokenEntry;
  if (entry.short || !isLetter(bare.charCodeAt(0)) || !isLetter(bare.charCodeAt(bare.length - 1))) return null;
  return { entry, technique: "insertion", distance: bare.length - letters.length, strength: 0.9, seen: label, detail: "digits inserted" };
}
