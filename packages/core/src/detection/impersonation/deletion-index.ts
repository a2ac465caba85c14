import { boundedDamerauLevenshtein } from "./edit-distance.js";

export interface NearMatch {
  readonly id: number;
  readonly distance: number;
}

/**
 * Deletions are stored under a 30-bit hash (a small integer, so V8 keeps map keys unboxed)
 * and hashed straight from the query's characters, skipping the deleted ones: no string is
 * built per lookup. A hash collision only adds a candidate, which the edit distance rejects.
 */
function hashSkipping(s: string, length: number, skipA: number, skipB: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < length; i++) {
    if (i === skipA || i === skipB) continue;
    h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  }
  return h & 0x3fffffff;
}

/** Every string made by deleting up to `depth` characters of `s` (with `s` itself). */
function deletions(s: string, depth: number, out: Set<string>): void {
  out.add(s);
  if (depth === 0 || s.length <= 1) return;
  for (let i = 0; i < s.length; i++) {
    const d = s.slice(0, i) + s.slice(i + 1);
    if (!out.has(d)) deletions(d, depth - 1, out);
  }
}

/**
 * Only the first PREFIX characters are indexed (SymSpell's prefix trick). Each edit costs at
 * most one deletion on each side of a prefix too (an insertion pushes one character out past
 * the prefix end), so prefixes of strings within k edits still share a k-deletion; and a query
 * then makes at most 1 + 7 + 21 lookups however long it is.
 */
const PREFIX = 7;
const FILTER_BITS = 1 << 17;

/**
 * Symmetric-deletion index (the SymSpell idea): every word is stored under each string made
 * by deleting up to its allowed distance in characters from its prefix. Two strings within
 * distance k share such a deletion, so a query only generates its own deletions and looks
 * them up, instead of running a full edit-distance table against every brand. Candidates are
 * then confirmed with the bounded Damerau–Levenshtein distance and each word's own limit.
 */
export class DeletionIndex {
  private readonly byDeletion = new Map<number, number | number[]>();
  /**
   * One bit per hash value modulo 2^17: almost every deletion of an ordinary label is in no
   * word's list, and testing a bit is far cheaper than a map lookup that finds nothing.
   */
  private readonly filter = new Uint32Array(FILTER_BITS >>> 5);
  private readonly words: string[] = [];
  private readonly limits: number[] = [];
  private readonly ids: number[] = [];
  private seen = new Uint32Array(0);
  private stamp = 0;
  private best = -1;
  private bestDistance = 3;
  private minLength = Number.POSITIVE_INFINITY;
  private maxLength = 0;
  /** Shortest query that can be within two edits of a word allowed two. */
  private twoEditsFrom = Number.POSITIVE_INFINITY;

  /** Adds `word` (with the caller's `id`), matched within `maxDistance` (1 or 2). */
  add(word: string, id: number, maxDistance: 1 | 2): void {
    const slot = this.words.length;
    this.words.push(word);
    this.limits.push(maxDistance);
    this.ids.push(id);
    this.minLength = Math.min(this.minLength, word.length - maxDistance);
    this.maxLength = Math.max(this.maxLength, word.length + maxDistance);
    if (maxDistance === 2) this.twoEditsFrom = Math.min(this.twoEditsFrom, word.length - 2);
    const dels = new Set<string>();
    deletions(word.slice(0, PREFIX), maxDistance, dels);
    for (const d of dels) {
      const key = hashSkipping(d, d.length, -1, -1);
      const bit = key & (FILTER_BITS - 1);
      this.filter[bit >>> 5] = (this.filter[bit >>> 5] as number) | (1 << (bit & 31));
      const cur = this.byDeletion.get(key);
      if (cur === undefined) this.byDeletion.set(key, slot);
      else if (typeof cur === "number") {
        if (cur !== slot) this.byDeletion.set(key, [cur, slot]);
      } else if (!cur.includes(slot)) cur.push(slot);
    }
  }

  get size(): number {
    return this.byDeletion.size;
  }

  /**
   * The closest word within its own limit (ties: the longer word, then the first added), or
   * null. Words equal to the query are skipped: an exact hit is the caller's business.
   */
  nearest(query: string): NearMatch | null {
    const n = query.length;
    if (n < this.minLength || n > this.maxLength) return null;
    if (this.seen.length < this.words.length) this.seen = new Uint32Array(this.words.length);
    this.stamp = (this.stamp + 1) >>> 0;
    if (this.stamp === 0) {
      this.seen.fill(0);
      this.stamp = 1;
    }
    this.best = -1;
    this.bestDistance = 3;
    const p = Math.min(n, PREFIX);
    const twoEdits = n >= this.twoEditsFrom;
    this.consider(query, hashSkipping(query, p, -1, -1));
    for (let i = 0; i < p; i++) {
      this.consider(query, hashSkipping(query, p, i, -1));
      if (twoEdits) for (let j = i + 1; j < p; j++) this.consider(query, hashSkipping(query, p, i, j));
    }
    const best = this.best;
    return best < 0 ? null : { id: this.ids[best] as number, distance: this.bestDistance };
  }

  /** Confirms the words stored under one deletion against the query (a method, not a closure: this is the hot loop). */
  private consider(query: string, key: number): void {
    const bit = key & (FILTER_BITS - 1);
    if (((this.filter[bit >>> 5] as number) & (1 << (bit & 31))) === 0) return;
    const slots = this.byDeletion.get(key);
    if (slots === undefined) return;
    if (typeof slots === "number") this.confirm(query, slots);
    else for (const s of slots) this.confirm(query, s);
  }

  private confirm(query: string, slot: number): void {
    if (this.seen[slot] === this.stamp) return;
    this.seen[slot] = this.stamp;
    const word = this.words[slot] as string;
    if (word === query) return;
    const limit = this.limits[slot] as number;
    const d = boundedDamerauLevenshtein(query, word, limit);
    if (d > limit) return;
    if (d < this.bestDistance || (d === this.bestDistance && word.length > (this.words[this.best] as string).length)) {
      this.best = slot;
      this.bestDistance = d;
    }
  }
}
