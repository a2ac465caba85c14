/**
 * Text normalisation shared by the parser and the chat extractor:
 * - invisible characters (zero-width and bidi controls) are removed, because scammers put them
 *   inside names to dodge filters, and recorded, because their presence is itself a signal;
 * - "defanged" spellings that analysts and scammers use to stop auto-linking
 *   (`hxxp://`, `example[.]com`, `example(dot)com`, `user[at]host`) are turned back.
 * One left-to-right pass, no regular expressions: linear in the input.
 */

/** Code points that render as nothing or only reorder text. */
const HIDDEN = new Set([
  0x00ad, // soft hyphen
  0x034f, // combining grapheme joiner
  0x061c, // Arabic letter mark
  0x115f, 0x1160, 0x17b4, 0x17b5, 0x180e,
  0x200b, 0x200c, 0x200d, 0x200e, 0x200f, // zero-width space/non-joiner/joiner, LRM, RLM
  0x202a, 0x202b, 0x202c, 0x202d, 0x202e, // bidi embeddings and overrides
  0x2060, 0x2061, 0x2062, 0x2063, 0x2064, // word joiner, invisible operators
  0x2066, 0x2067, 0x2068, 0x2069, // bidi isolates
  0x3164, 0xfeff, 0xffa0,
]);
const BIDI = new Set([0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069]);

export const isHiddenCodePoint = (cp: number): boolean => HIDDEN.has(cp);
export const isBidiControl = (cp: number): boolean => BIDI.has(cp);
export const codePointLabel = (cp: number): string => `U+${cp.toString(16).toUpperCase().padStart(4, "0")}`;

/** Bracketed replacements, longest first; matched case-insensitively. */
const BRACKETED: readonly (readonly [string, string])[] = [
  ["[://]", "://"], ["[dot]", "."], ["(dot)", "."], ["{dot}", "."], ["[at]", "@"], ["(at)", "@"], ["{at}", "@"],
  ["[.]", "."], ["(.)", "."], ["{.}", "."], ["[:]", ":"], ["[@]", "@"], ["[/]", "/"],
];
const DOT_LIKE = new Set(["[dot]", "(dot)", "{dot}", "[.]", "(.)", "{.}", "[at]", "(at)", "{at}", "[@]"]);

export interface Normalized {
  /** The text with hidden characters removed and defanged spellings restored. */
  readonly text: string;
  /** Index in the original string of `text[i]` (`toOriginal(text.length)` is the original length). */
  toOriginal(i: number): number;
  /** Distinct hidden code points found, as `U+200B` labels, in order of first appearance. */
  readonly hidden: readonly string[];
  readonly bidi: boolean;
  readonly defanged: boolean;
}

const startsWithCI = (s: string, at: number, lit: string): boolean => {
  if (at + lit.length > s.length) return false;
  for (let k = 0; k < lit.length; k++) {
    let c = s.charCodeAt(at + k);
    if (c >= 65 && c <= 90) c += 32;
    if (c !== lit.charCodeAt(k)) return false;
  }
  return true;
};

const isAlnum = (c: number): boolean => (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a);

/** What to do at position i: null when the character stays as it is. */
function rewriteAt(input: string, i: number): { replace: string; skip: number; kind: "hidden" | "defang" } | null {
  const c = input.charCodeAt(i);
  if (c >= 0x00ad && HIDDEN.has(c)) return { replace: "", skip: 1, kind: "hidden" };
  if (c === 0x5b /* [ */ || c === 0x28 /* ( */ || c === 0x7b /* { */) {
    for (const [lit, rep] of BRACKETED) if (startsWithCI(input, i, lit)) return { replace: rep, skip: lit.length, kind: "defang" };
    return null;
  }
  if ((c | 0x20) === 0x68 /* h */ && startsWithCI(input, i, "hxxp") && !(i > 0 && isAlnum(input.charCodeAt(i - 1)))) {
    return { replace: "http", skip: 4, kind: "defang" };
  }
  return null;
}

const identity = (i: number): number => i;

export function normalizeText(input: string): Normalized {
  let i = 0;
  for (; i < input.length; i++) {
    const c = input.charCodeAt(i);
    // Only these can start a rewrite; checking them inline keeps the common case to one compare chain.
    if ((c >= 0x00ad || c === 0x5b || c === 0x28 || c === 0x7b || (c | 0x20) === 0x68) && rewriteAt(input, i)) break;
  }
  if (i === input.length) return { text: input, toOriginal: identity, hidden: [], bidi: false, defanged: false };

  // Something changes: rebuild from the first change on, keeping a map back to original offsets.
  const chunks: string[] = [input.slice(0, i)];
  const map = new Int32Array(input.length + 1);
  for (let k = 0; k < i; k++) map[k] = k;
  let n = i;
  const hidden: string[] = [];
  let bidi = false;
  let defanged = false;
  while (i < input.length) {
    const r = rewriteAt(input, i);
    if (!r) {
      chunks.push(input[i] as string);
      map[n++] = i++;
      continue;
    }
    if (r.kind === "hidden") {
      const cp = input.charCodeAt(i);
      const label = codePointLabel(cp);
      if (!hidden.includes(label)) hidden.push(label);
      if (BIDI.has(cp)) bidi = true;
      i += 1;
      continue;
    }
    defanged = true;
    const dotLike = DOT_LIKE.has(input.slice(i, i + r.skip).toLowerCase());
    // "example [.] com": the spaces around a defanged dot belong to the defanging, not to the text.
    while (dotLike && n > 0) {
      const last = chunks[chunks.length - 1] as string;
      if (!last.endsWith(" ")) break;
      if (last.length === 1) chunks.pop();
      else chunks[chunks.length - 1] = last.slice(0, -1);
      n--;
    }
    chunks.push(r.replace);
    for (let k = 0; k < r.replace.length; k++) map[n++] = i;
    i += r.skip;
    if (dotLike) while (input.charCodeAt(i) === 0x20) i++;
  }
  map[n] = input.length;
  const text = chunks.join("");
  return { text, toOriginal: (j) => map[j] ?? input.length, hidden, bidi, defanged };
}
