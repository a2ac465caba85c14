/**
 * `new Intl.Collator().compare` — the order `localeCompare` gives, ICU's root collation — for the
 * strings svc sorts: signal codes (`domain.lookalike_brand`) and source names (`feed-phishtank`),
 * made of a–z, 0–9, `_`, `-` and `.`. Over that alphabet the collation compares character by
 * character, each by its rank (`_` < `-` < `.` < digits < letters), a string before any longer one
 * it starts; so it is computed here without ICU. Making a collator loads ICU's collation data,
 * about 5 MB of the node binary read into memory, for a sort of a handful of codes per check. Any
 * other string is compared by a collator made on first need, so the order is the same for all.
 */
const ALPHABET = "_-.0123456789abcdefghijklmnopqrstuvwxyz";
const RANK: Int8Array = (() => {
  const r = new Int8Array(128).fill(-1);
  for (let i = 0; i < ALPHABET.length; i++) r[ALPHABET.charCodeAt(i)] = i;
  return r;
})();

let collator: ((a: string, b: string) => number) | null = null;

const rankOf = (c: number): number => (c < 128 ? (RANK[c] as number) : -1);

function byCollator(a: string, b: string): number {
  collator ??= new Intl.Collator().compare;
  return collator(a, b);
}

export function collationCompare(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = rankOf(a.charCodeAt(i));
    const y = rankOf(b.charCodeAt(i));
    if (x < 0 || y < 0) return byCollator(a, b);
    if (x !== y) return x < y ? -1 : 1;
  }
  for (let i = n; i < a.length; i++) if (rankOf(a.charCodeAt(i)) < 0) return byCollator(a, b);
  for (let i = n; i < b.length; i++) if (rankOf(b.charCodeAt(i)) < 0) return byCollator(a, b);
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}
