/**
 * Damerau–Levenshtein distance (optimal string alignment: insertions, deletions,
 * substitutions and swaps of neighbours each cost 1), bounded: gives up and returns
 * `max + 1` as soon as no alignment can stay within `max`. Lookalike checks only ever ask
 * "within 1 or 2?", so the early exit keeps a miss at a few dozen comparisons.
 */
const SCRATCH = 64;
let rowA = new Int32Array(SCRATCH + 1);
let rowB = new Int32Array(SCRATCH + 1);
let rowC = new Int32Array(SCRATCH + 1);

export function boundedDamerauLevenshtein(a: string, b: string, max: number): number {
  if (a === b) return 0;
  const la = a.length;
  const lb = b.length;
  if (Math.abs(la - lb) > max) return max + 1;
  if (la === 0 || lb === 0) return Math.max(la, lb);
  if (lb + 1 > rowA.length) {
    rowA = new Int32Array(lb + 1);
    rowB = new Int32Array(lb + 1);
    rowC = new Int32Array(lb + 1);
  }
  // Three rolling rows: two back for the swap, one back, and the current one.
  let twoBack = rowA;
  let prev = rowB;
  let cur = rowC;
  for (let j = 0; j <= lb; j++) prev[j] = j;
  for (let i = 1; i <= la; i++) {
    const ca = a.charCodeAt(i - 1);
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= lb; j++) {
      const cb = b.charCodeAt(j - 1);
      let v = Math.min((prev[j] as number) + 1, (cur[j - 1] as number) + 1, (prev[j - 1] as number) + (ca === cb ? 0 : 1));
      if (i > 1 && j > 1 && ca === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === cb) v = Math.min(v, (twoBack[j - 2] as number) + 1);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    const t = twoBack;
    twoBack = prev;
    prev = cur;
    cur = t;
  }
  const d = prev[lb] as number;
  return d <= max ? d : max + 1;
}
