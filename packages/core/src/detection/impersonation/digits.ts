import type { ImpersonationIndex, TokenEntry } from "./build-index.js";
import { fromMatch, type Candidate } from "./candidate.js";
import { fuzzyTokenMatch, tokenIdOf } from "./label-match.js";
import { hashString } from "../string-filter.js";

const isLetter = (c: number): boolean => c >= 0x61 && c <= 0x7a;

/** `s` without its digits, or null when it has none. */
export function stripDigits(s: string): string | null {
  // Joined from whole runs of non-digits (usually one or two), not a character at a time.
  let out: string | null = null;
  let run = 0;
  for (let i = 0; i <= s.length; i++) {
    const c = i < s.length ? s.charCodeAt(i) : 0x30;
    if (c < 0x30 || c > 0x39) continue;
    if (i < s.length || out !== null) out = (out ?? "") + s.slice(run, i);
    run = i + 1;
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
  const h = hashString(letters);
  const id = tokenIdOf(letters, index, h);
  if (id === undefined) return fromMatch(fuzzyTokenMatch(letters, index, true, h), letters, index, 0.9, ", digits added");
  const entry = index.tokens[id] as TokenEntry;
  if (entry.short || !isLetter(bare.charCodeAt(0)) || !isLetter(bare.charCodeAt(bare.length - 1))) return null;
  return { entry, technique: "insertion", distance: bare.length - letters.length, strength: 0.9, seen: label, detail: "digits inserted" };
}
