/**
 * Keys next to each other on the layouts most victims type on (QWERTY, QWERTZ, AZERTY).
 * Typosquatters register the names a slipped finger produces, so "replacement" and
 * "insertion" permutations only use neighbouring keys: any other letter is an edit-distance
 * question, not a typo.
 */
const LAYOUTS: readonly (readonly string[])[] = [
  ["1234567890", "qwertyuiop", "asdfghjkl", "zxcvbnm"],
  ["1234567890", "qwertzuiop", "asdfghjkl", "yxcvbnm"],
  ["1234567890", "azertyuiop", "qsdfghjklm", "wxcvbn"],
];
/** How far each row is shifted right, in key widths, on a standard staggered keyboard. */
const ROW_OFFSETS = [0, 0.5, 0.75, 1.25] as const;

function neighboursOn(rows: readonly string[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const add = (a: string, b: string | undefined): void => {
    if (b === undefined || b === a) return;
    let s = out.get(a);
    if (!s) out.set(a, (s = new Set()));
    s.add(b);
  };
  rows.forEach((row, r) => {
    for (let c = 0; c < row.length; c++) {
      const key = row[c] as string;
      add(key, row[c - 1]);
      add(key, row[c + 1]);
      // Rows are staggered: a key above or below touches this one when their centres are less than a key apart.
      const x = (ROW_OFFSETS[r] ?? 0) + c;
      for (const o of [r - 1, r + 1]) {
        const other = rows[o];
        if (other === undefined) continue;
        for (let oc = 0; oc < other.length; oc++) {
          if (Math.abs((ROW_OFFSETS[o] ?? 0) + oc - x) < 1) add(key, other[oc]);
        }
      }
    }
  });
  return out;
}

function buildNeighbours(): ReadonlyMap<string, string> {
  const merged = new Map<string, Set<string>>();
  for (const layout of LAYOUTS) {
    for (const [k, vs] of neighboursOn(layout)) {
      let s = merged.get(k);
      if (!s) merged.set(k, (s = new Set()));
      for (const v of vs) s.add(v);
    }
  }
  return new Map([...merged].map(([k, vs]) => [k, [...vs].sort().join("")]));
}

/** Character → its neighbouring keys on any supported layout, as one string (e.g. "a" → "qswz..."). */
const KEYBOARD_NEIGHBOURS: ReadonlyMap<string, string> = buildNeighbours();

export const keyboardNeighbours = (ch: string): string => KEYBOARD_NEIGHBOURS.get(ch) ?? "";
