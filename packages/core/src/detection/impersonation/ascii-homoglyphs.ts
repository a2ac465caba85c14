/**
 * ASCII characters that read as other ASCII characters in the fonts of address bars, mail
 * clients and chat apps (dnstwist's "homoglyph" fuzzer, ASCII part). Non-ASCII look-alikes are
 * handled by the UTS #39 skeleton instead, which covers thousands of them.
 *
 * Kept short on purpose: every entry multiplies the precomputed permutations, and an entry that
 * is not truly confusable only adds false positives. Leetspeak ("4" for "a", "3" for "e", "5"
 * for "s") is left to the edit distance: it is a substitution a reader notices, and "6mail",
 * "7mail" are real mail providers, not copies of gmail.
 */
export const ASCII_HOMOGLYPHS: ReadonlyMap<string, readonly string[]> = new Map([
  ["b", ["d"]],
  ["c", ["e"]],
  ["d", ["b", "cl"]],
  ["e", ["c"]],
  ["g", ["q"]],
  ["i", ["1", "l", "j"]],
  ["j", ["i"]],
  ["k", ["lc"]],
  ["l", ["1", "i"]],
  ["m", ["rn", "nn"]],
  ["n", ["m", "r"]],
  ["o", ["0"]],
  ["q", ["g"]],
  ["u", ["v"]],
  ["v", ["u"]],
  ["w", ["vv"]],
  ["0", ["o"]],
  ["1", ["l", "i"]],
]);

/** Letter pairs that collapse into one glyph at small sizes ("rn" reads as "m"). */
export const ASCII_PAIR_HOMOGLYPHS: ReadonlyMap<string, string> = new Map([
  ["rn", "m"],
  ["nn", "m"],
  ["vv", "w"],
  ["cl", "d"],
]);
