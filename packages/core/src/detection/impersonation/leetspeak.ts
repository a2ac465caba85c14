import type { ImpersonationIndex, TokenEntry } from "./build-index.js";
import { keyOfCodes } from "./affix-key.js";
import type { Candidate } from "./candidate.js";

const LEET: Readonly<Record<string, string>> = { "0": "o", "1": "l", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b" };
/** Leetspeak on names of six letters or more only: "6mail" and "7mail" are real mail providers, not gmail. */
const MIN_LEET_TOKEN = 6;

/** Character i of `s` as read in leetspeak, with "1" read as `one`. */
const readAt = (s: string, i: number, one: string): string => {
  const ch = s[i] as string;
  return ch === "1" ? one : (LEET[ch] ?? ch);
};

/** The letter each leetspeak digit stands for, by character code ("1" is handled apart). */
const LEET_CODES: readonly number[] = (() => {
  const t = Array.from({ length: 0x3a }, (_, c) => c);
  for (const [digit, letter] of Object.entries(LEET)) t[digit.charCodeAt(0)] = letter.charCodeAt(0);
  return t;
})();

/** `readAt` by character code: code of character i of `s` in leetspeak, "1" read as the code `one`. */
const codeAt = (s: string, i: number, one: number): number => {
  const c = s.charCodeAt(i);
  return c === 0x31 ? one : c < LEET_CODES.length ? (LEET_CODES[c] as number) : c;
};

/**
 * "p4yp4l", "c01nb4se": digits standing for letters, several at once (one alone is an edit
 * the distance check already sees). "1" is tried as "l" and as "i".
 */

export function leetspeak(bare: string, label: string, index: ImpersonationIndex): Candidate | null {
  // Only a digit that stands for a letter can change the reading; "1" alone has two readings.
  let hasOne = false;
  let hasOther = false;
  for (let i = 0; i < bare.length; i++) {
    const c = bare.charCodeAt(i);
    if (c === 0x31) hasOne = true;
    else if (c < LEET_CODES.length && LEET_CODES[c] !== c) hasOther = true;
  }
  if ((!hasOne && !hasOther) || bare.length < MIN_LEET_TOKEN) return null;
  for (const one of hasOne ? ["l", "i"] : ["l"]) {
    // Every token it could read as (six letters or more, not short) is filed under its first four,
    // so the reading is only built when some token starts like it.
    const o = one.charCodeAt(0);
    if (!index.tokensByHead.has(keyOfCodes(codeAt(bare, 0, o), codeAt(bare, 1, o), codeAt(bare, 2, o), codeAt(bare, 3, o)))) continue;
    let read = "";
    for (let i = 0; i < bare.length; i++) read += readAt(bare, i, one);
    const id = index.tokenIds.get(read);
    const entry = id === undefined ? undefined : (index.tokens[id] as TokenEntry);
    if (entry && !entry.short && entry.token.length >= MIN_LEET_TOKEN) {
      let same = 0;
      for (let i = 0; i < bare.length; i++) if (bare[i] === read[i]) same++;
      return { entry, technique: "homoglyph", distance: bare.length - same, strength: 0.95, seen: label, detail: "digits written for letters" };
    }
  }
  return null;
}
