import type { ImpersonationIndex, TokenEntry } from "./build-index.js";
import type { Candidate } from "./candidate.js";

const LEET: Readonly<Record<string, string>> = { "0": "o", "1": "l", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b" };
/** Leetspeak on names of six letters or more only: "6mail" and "7mail" are real mail providers, not gmail. */
const MIN_LEET_TOKEN = 6;

/**
 * "p4yp4l", "c01nb4se": digits standing for letters, several at once (one alone is an edit
 * the distance check already sees). "1" is tried as "l" and as "i".
 */
export function leetspeak(bare: string, label: string, index: ImpersonationIndex): Candidate | null {
  // Only a digit that stands for a letter can change the reading; "1" alone has two readings.
  let hasOne = false;
  let hasOther = false;
  for (let i = 0; i < bare.length; i++) {
    const ch = bare[i] as string;
    if (ch === "1") hasOne = true;
    else if (LEET[ch] !== undefined) hasOther = true;
  }
  if (!hasOne && !hasOther) return null;
  for (const one of hasOne ? ["l", "i"] : ["l"]) {
    let read = "";
    for (let i = 0; i < bare.length; i++) {
      const ch = bare[i] as string;
      read += ch === "1" ? one : (LEET[ch] ?? ch);
    }
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
