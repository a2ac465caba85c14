import type { Finding } from "../types.js";
import type { ImpersonationIndex, TokenEntry } from "./build-index.js";
import { better, fromMatch, type Candidate } from "./candidate.js";
import { sameConsonants } from "./consonants.js";
import { digitsInside } from "./digits.js";
import { finding } from "./findings.js";
import { labelParts, type HostView } from "./host-view.js";
import { fuzzyTokenMatch, tokenIdOf } from "./label-match.js";
import { hashString } from "../string-filter.js";
import { leetspeak } from "./leetspeak.js";
import { FIRST_LETTER_FACTOR, PART_FACTOR, WORD_SWAP_FACTOR } from "./policy.js";
import { subdomainSplit } from "./subdomain-split.js";
import { tldSwap } from "./tld-swap.js";

/** "pay-pal", "pay-pa1": hyphens inserted into a name, read without them, and each part alone ("metamsak-wallet"). */
function hyphenated(label: string, bare: string, index: ImpersonationIndex): Candidate | null {
  let best: Candidate | null = null;
  const h = hashString(bare);
  const id = tokenIdOf(bare, index, h);
  const entry = id === undefined ? undefined : (index.tokens[id] as TokenEntry);
  if (entry && !entry.short) best = { entry, technique: "hyphenation", distance: 1, strength: 0.9, seen: label, detail: "hyphens added" };
  else best = fromMatch(fuzzyTokenMatch(bare, index, true, h), bare, index, 0.95, ", hyphens added");
  for (const part of labelParts(label)) {
    if (part.length >= 5 && part !== label) best = better(best, fromMatch(fuzzyTokenMatch(part, index), part, index, PART_FACTOR));
  }
  return best;
}

/**
 * Typosquatting of the registrable label: same name on another TLD, dnstwist permutations,
 * skeleton copies and bounded edit distance, on the label, the label without hyphens, without
 * digits, each hyphen-separated part, digits read as letters, and labels joined across a dot.
 * Reports the strongest reading.
 */
export function lookalikeFinding(view: HostView, index: ImpersonationIndex): Finding | null {
  const label = view.label;
  if (label.startsWith("xn--")) return null; // the homograph check reads the Unicode form
  const hasHyphen = label.includes("-");
  const bare = hasHyphen ? label.replaceAll("-", "") : label;
  const h = hashString(label);
  let best = tldSwap(view, index, h);
  // A hyphenated label gets its edit distance without the hyphens, in `hyphenated`.
  best = better(best, fromMatch(fuzzyTokenMatch(label, index, !hasHyphen, h), label, index));
  if (hasHyphen) best = better(best, hyphenated(label, bare, index));
  best = better(best, digitsInside(bare, label, index));
  best = better(best, leetspeak(bare, label, index));
  best = better(best, subdomainSplit(view, index));
  // Vowels and doubled letters changed beyond the edit-distance allowance ("meytherwellat").
  if (!best) best = sameConsonants(bare, index);
  if (!best) return null;
  const { entry } = best;
  // Typosquats keep a name's first letter, where readers look; another first letter usually
  // makes another word ("nfinity", "cobinhood"). Unless it is a look-alike character ("rn" for "m").
  let strength = best.technique !== "homoglyph" && best.technique !== "tld-swap" && best.seen.charCodeAt(0) !== entry.token.charCodeAt(0) ? best.strength * FIRST_LETTER_FACTOR : best.strength;
  // Another name made of ordinary words the way the brand's is ("metacask", "openspa"), not a misspelling.
  // (Also for a look-alike letter that makes another word: "blockchair" is "chair", not "chain" with an "r" for "n".)
  const wordSwap = best.technique !== "tld-swap" && index.wordSwaps.has(best.seen.replaceAll("-", ""));
  if (wordSwap) strength *= WORD_SWAP_FACTOR;
  const message = best.technique === "tld-swap"
    ? `Uses the name ${entry.brand.name} on .${view.suffix}; the real site is ${entry.target}`
    : `Looks like ${entry.target} (${best.detail})`;
  return finding(
    "domain.lookalike_brand",
    "impersonation",
    message,
    { target: entry.target, brand: entry.brand.id, technique: best.technique, distance: best.distance, token: entry.token, seen: best.seen, ...(wordSwap ? { word_swap: true } : {}) },
    index.source,
    strength,
  );
}
