import { confusables } from "@svc/intel";

/**
 * UTS #39 skeleton of a name: two names with the same skeleton look alike to a reader.
 * NFKD folds compatibility forms (fullwidth, mathematical letters), combining marks are
 * dropped (é → e), each code point is mapped through the Unicode confusables table
 * (Cyrillic а → a), then everything is lower-cased. Names are display strings, so spaces,
 * punctuation and emoji carry no identity: they are dropped, leaving word breaks as one space.
 */
const MARK = /\p{M}/gu;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
/** Names longer than this are cut: display names are short, and this bounds every comparison. */
export const MAX_NAME = 64;

function mapConfusables(s: string): string {
  let out = "";
  for (const ch of s) {
    const cp = ch.codePointAt(0) as number;
    out += confusables.get(cp) ?? ch;
  }
  return out;
}

export function skeleton(name: string): string {
  // Words made only of symbols ("|", "🛡️", "-") are decoration; dropping them before mapping
  // keeps "Alice | Support" from reading as "Alice l Support" ("|" is confusable with "l").
  const words = name.slice(0, MAX_NAME * 2).normalize("NFKD").replace(MARK, "").split(/\s+/u).filter((w) => LETTER_OR_DIGIT.test(w));
  const folded = mapConfusables(words.join(" ")).toLowerCase();
  // A second pass catches prototypes that are themselves upper-case or decomposable.
  const again = mapConfusables(folded.normalize("NFKD").replace(MARK, "")).toLowerCase();
  let out = "";
  let space = false;
  for (const ch of again) {
    if (LETTER_OR_DIGIT.test(ch)) {
      if (space && out.length > 0) out += " ";
      out += ch;
      space = false;
    } else {
      space = true;
    }
  }
  return out.slice(0, MAX_NAME);
}

/**
 * Skeletons are case-sensitive by design (capital I looks like l), so "ALICE" and "Alice"
 * differ; names are also compared lower-cased first, and a match on either counts.
 */
export function skeletons(name: string): readonly string[] {
  const a = skeleton(name);
  const b = skeleton(name.toLowerCase());
  return a === b ? [a] : [a, b];
}

/** Skeleton with word breaks removed: `Alice_Admin` and `alice admin` compare equal. */
export const compactSkeleton = (name: string): string => skeleton(name).replaceAll(" ", "");
