/**
 * Blocklist patterns are globs, never regular expressions: group admins type them, and a
 * user-supplied RegExp is a denial of service waiting to happen (catastrophic backtracking)
 * as well as a footgun. Only `*` (any run of characters, possibly empty) and `?` (exactly one
 * character) are special; everything else is literal and matching is case-insensitive.
 *
 * Matching never backtracks across stars: the pattern is split at `*`, the first piece must
 * match at the start, the last at the end, and each middle piece is taken at its leftmost
 * position after the previous one. Leftmost is always safe (a later position leaves strictly
 * less text for the remaining pieces), so one forward pass decides. The work is at most
 * |pattern| × |text| character comparisons, i.e. linear in the text for a bounded pattern;
 * pieces without `?` use `indexOf`.
 */
export interface Glob {
  readonly source: string;
  /** Pieces between stars, as code points; `null` stands for `?`. */
  readonly pieces: readonly (readonly (string | null)[])[];
  readonly hasStar: boolean;
  /** Code points the text needs at least (every non-star character). */
  readonly minLength: number;
}

export const MAX_PATTERN_LENGTH = 128;
/** A pattern needs this many literal characters, so `*` or `??*` cannot block every link. */
export const MIN_LITERALS = 3;

export type GlobResult = { readonly ok: true; readonly glob: Glob } | { readonly ok: false; readonly reason: string };

export function compileGlob(pattern: string): GlobResult {
  const source = pattern.trim().toLowerCase();
  if (source.length === 0) return { ok: false, reason: "the pattern is empty" };
  if (source.length > MAX_PATTERN_LENGTH) return { ok: false, reason: `patterns are at most ${MAX_PATTERN_LENGTH} characters` };
  const chars = Array.from(source);
  let literals = 0;
  for (const c of chars) {
    const cp = c.codePointAt(0) as number;
    if (cp < 0x20 || cp === 0x7f || /\s/u.test(c)) return { ok: false, reason: "patterns cannot contain spaces or control characters" };
    if (c !== "*" && c !== "?") literals++;
  }
  if (literals < MIN_LITERALS) return { ok: false, reason: `a pattern needs at least ${MIN_LITERALS} ordinary characters, or it would match nearly everything` };
  const pieces: (string | null)[][] = [[]];
  let minLength = 0;
  for (const c of chars) {
    if (c === "*") {
      // Consecutive stars are one star.
      if ((pieces.at(-1) as (string | null)[]).length > 0 || pieces.length === 1) pieces.push([]);
      continue;
    }
    (pieces.at(-1) as (string | null)[]).push(c === "?" ? null : c);
    minLength++;
  }
  const hasStar = pieces.length > 1;
  return { ok: true, glob: { source, pieces, hasStar, minLength } };
}

/** Does `piece` match `text` starting exactly at `at`? */
function matchesAt(piece: readonly (string | null)[], text: readonly string[], at: number): boolean {
  if (at + piece.length > text.length) return false;
  for (let i = 0; i < piece.length; i++) {
    const p = piece[i];
    if (p !== null && p !== text[at + i]) return false;
  }
  return true;
}

/** Leftmost position ≥ from where `piece` matches and ends by `limit`, or -1. */
function find(piece: readonly (string | null)[], text: readonly string[], joined: string | null, from: number, limit: number): number {
  if (joined !== null && !piece.includes(null)) {
    // Fast path: plain text, code points and string offsets coincide because the text is ASCII.
    const at = joined.indexOf(piece.join(""), from);
    return at >= 0 && at + piece.length <= limit ? at : -1;
  }
  for (let at = from; at + piece.length <= limit; at++) if (matchesAt(piece, text, at)) return at;
  return -1;
}

export function matchGlob(glob: Glob, input: string): boolean {
  const lower = input.toLowerCase();
  // eslint-disable-next-line no-control-regex -- checking for pure ASCII, not matching user input
  const ascii = /^[\x00-\x7f]*$/.test(lower);
  const text = ascii ? (lower.split("") as string[]) : Array.from(lower);
  if (text.length < glob.minLength) return false;
  const { pieces } = glob;
  const first = pieces[0] as readonly (string | null)[];
  if (!glob.hasStar) return text.length === first.length && matchesAt(first, text, 0);
  const last = pieces.at(-1) as readonly (string | null)[];
  if (!matchesAt(first, text, 0)) return false;
  const tailStart = text.length - last.length;
  if (tailStart < first.length || !matchesAt(last, text, tailStart)) return false;
  let pos = first.length;
  for (let i = 1; i < pieces.length - 1; i++) {
    const piece = pieces[i] as readonly (string | null)[];
    const at = find(piece, text, ascii ? lower : null, pos, tailStart);
    if (at < 0) return false;
    pos = at + piece.length;
  }
  return true;
}

/** The first pattern that matches any of the candidate strings (entity value, host). */
export function firstMatch(globs: readonly Glob[], candidates: readonly string[]): Glob | null {
  for (const g of globs) for (const c of candidates) if (matchGlob(g, c)) return g;
  return null;
}
