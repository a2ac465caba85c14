/**
 * ASCII characters that read as other ASCII characters in the fonts of address bars, mail
 * clients and chat apps (dnstwist's "homoglyph" fuzzer, ASCII part). Non-ASCII look-alikes are
 * handled by the UTS #39 skeleton instead, which covers thousands of them.
 *
 * Kept short on purpose: every entry multiplies the precomputed permutations, and an entry that
 * is not truly confusable (b/h, u/y) only adds false positives.
 */
export const ASCII_HOMOGLYPHS: ReadonlyMap<string, readonly string[]> = new Map([
  ["a", ["4"]],
  ["b", ["6", "8", "d"]],
  ["c", ["e"]],
  ["d", ["b", "cl"]],
  ["e", ["3", "c"]],
  ["g", ["9", "q", "6"]],
  ["i", ["1", "l", "j"]],
  ["j", ["i"]],
  ["k", ["lc"]],
  ["l", ["1", "i"]],
  ["m", ["rn", "nn"]],
  ["n", ["m", "r"]],
  ["o", ["0"]],
  ["q", ["g", "9"]],
  ["s", ["5"]],
  ["t", ["7"]],
  ["u", ["v"]],
  ["v", ["u"]],
  ["w", ["vv"]],
  ["z", ["2"]],
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
