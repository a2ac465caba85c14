import { hashFinish } from "../string-filter.js";
import { boundedDamerauLevenshtein } from "./edit-distance.js";

export interface NearMatch {
  readonly id: number;
  readonly distance: number;
}

/**
 * Deletions are stored under a 30-bit hash (a small integer, so V8 keeps map keys unboxed),
 * computed without building any string. The hash is polynomial (mod 2^32) so that, once the
 * query's prefix hashes are known, the hash of the query with one or two characters deleted
 * costs a few multiplications instead of a pass over the characters; a final mix spreads it
 * over the low bits the filter uses. A collision only adds a candidate, which the edit
 * distance rejects.
 */
const BASE = 0x01000193;
/** BASE^k mod 2^32 for k up to the prefix length. */
const POW: Int32Array = (() => {
  const p = new Int32Array(16);
  p[0] = 1;
  for (let k = 1; k < p.length; k++) p[k] = Math.imul(p[k - 1] as number, BASE);
  return p;
})();

/** murmur3's finaliser, cut to 30 bits. */
const mix = (h: number): number => hashFinish(h) & 0x3fffffff;

/** Polynomial hash of a whole string (before mixing). */
function polynomial(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, BASE) + s.charCodeAt(i)) | 0;
  return h;
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
const FILTER_LOG2 = 17;
const FILTER_BITS = 1 << FILTER_LOG2;
/** The filter's second bit for a key: the key multiplied by an odd constant, its top bits taken. */
const secondBit = (key: number): number => Math.imul(key, 0x9e3779b1) >>> (32 - FILTER_LOG2);

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
   * Two bits per stored deletion in 2^17 (16 KB, which stays in the first-level cache): almost
   * every deletion of an ordinary label is in no word's list, and testing bits is far cheaper
   * than a map lookup that finds nothing. One bit alone let about one probe in twenty through
   * to the map; two let fewer than one in a hundred.
   */
  private readonly filter = new Uint32Array(FILTER_BITS >>> 5);
  private readonly words: string[] = [];
  private readonly limits: number[] = [];
  private readonly ids: number[] = [];
  private seen = new Uint32Array(0);
  /** Scratch prefix hashes of the current query. */
  private readonly pre = new Int32Array(PREFIX + 1);
  private stamp = 0;
  /**
   * Words found under the deletions of the last few queries' prefixes, in the order first found,
   * with what decided them (the prefix and whether two edits were allowed). A check looks up
   * several readings of one label (as written, without hyphens, each hyphen-separated part,
   * without digits) that mostly share a prefix with one looked up a moment before, not always
   * the one just before ("secure-login7" → "securelogin", "secure", "login", then "securelogin"
   * again without its digit); such a reading reuses the list and only confirms it against its
   * own text. CACHED lists, the oldest replaced first.
   */
  private readonly cached: CandidateList[] = Array.from({ length: CACHED }, () => ({ query: "", prefix: -1, twoEdits: false, slots: new Int32Array(16), count: 0 }));
  private nextCached = 0;
  /** The list being confirmed or filled. */
  private candidates: Int32Array = new Int32Array(16);
  private candidateCount = 0;
  private best = -1;
  private bestDistance = 3;
  private minLength = Number.POSITIVE_INFINITY;
  private maxLength = 0;
  /** Shortest query that can be within two edits of a word allowed two. */
  private twoEditsFrom = Number.POSITIVE_INFINITY;

  /** Adds `word` (with the caller's `id`), matched within `maxDistance` (1 or 2). */
  add(word: string, id: number, maxDistance: 1 | 2): void {
    const slot = this.words.length;
    for (const c of this.cached) c.prefix = -1; // the remembered candidates lack this word
    this.words.push(word);
    this.limits.push(maxDistance);
    this.ids.push(id);
    this.minLength = Math.min(this.minLength, word.length - maxDistance);
    this.maxLength = Math.max(this.maxLength, word.length + maxDistance);
    if (maxDistance === 2) this.twoEditsFrom = Math.min(this.twoEditsFrom, word.length - 2);
    const dels = new Set<string>();
    deletions(word.slice(0, PREFIX), maxDistance, dels);
    for (const d of dels) {
      const key = mix(polynomial(d));
      for (const bit of [key & (FILTER_BITS - 1), secondBit(key)]) this.filter[bit >>> 5] = (this.filter[bit >>> 5] as number) | (1 << (bit & 31));
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
    const p = Math.min(n, PREFIX);
    const twoEdits = n >= this.twoEditsFrom;
    let list: CandidateList | null = null;
    for (let c = 0; c < CACHED; c++) {
      const k = this.cached[c] as CandidateList;
      if (k.prefix === p && k.twoEdits === twoEdits && samePrefix(query, k.query, p)) {
        list = k;
        break;
      }
    }
    if (list === null) {
      list = this.cached[this.nextCached] as CandidateList;
      this.nextCached = (this.nextCached + 1) % CACHED;
      this.candidates = list.slots;
      this.collect(query, p, twoEdits);
      list.slots = this.candidates;
      list.count = this.candidateCount;
      list.query = query;
      list.prefix = p;
      list.twoEdits = twoEdits;
    }
    this.candidates = list.slots;
    this.candidateCount = list.count;
    this.best = -1;
    this.bestDistance = 3;
    const candidates = this.candidates;
    for (let k = 0; k < this.candidateCount; k++) this.confirm(query, candidates[k] as number);
    const best = this.best;
    return best < 0 ? null : { id: this.ids[best] as number, distance: this.bestDistance };
  }

  /** Fills `candidates` with the words stored under the prefix of `query` or any of its deletions. */
  private collect(query: string, p: number, twoEdits: boolean): void {
    this.candidateCount = 0;
    if (this.seen.length < this.words.length) this.seen = new Uint32Array(this.words.length);
    this.stamp = (this.stamp + 1) >>> 0;
    if (this.stamp === 0) {
      this.seen.fill(0);
      this.stamp = 1;
    }
    // pre[k]: hash of the first k characters. Without position i: pre[i]·B^(p−i−1) + the rest.
    const pre = this.pre;
    pre[0] = 0;
    for (let k = 0; k < p; k++) pre[k + 1] = (Math.imul(pre[k] as number, BASE) + query.charCodeAt(k)) | 0;
    const whole = pre[p] as number;
    this.consider(mix(whole));
    for (let i = 0; i < p; i++) {
      // Characters after i, as a hash of their own: whole − pre[i+1]·B^(p−i−1).
      const afterI = (whole - Math.imul(pre[i + 1] as number, POW[p - i - 1] as number)) | 0;
      this.consider(mix((Math.imul(pre[i] as number, POW[p - i - 1] as number) + afterI) | 0));
      if (!twoEdits) continue;
      for (let j = i + 1; j < p; j++) {
        // Between i and j (exclusive), then after j.
        const between = ((pre[j] as number) - Math.imul(pre[i + 1] as number, POW[j - i - 1] as number)) | 0;
        const afterJ = (whole - Math.imul(pre[j + 1] as number, POW[p - j - 1] as number)) | 0;
        const head = (Math.imul(pre[i] as number, POW[j - i - 1] as number) + between) | 0;
        this.consider(mix((Math.imul(head, POW[p - j - 1] as number) + afterJ) | 0));
      }
    }
  }

  /** Adds the words stored under one deletion to `candidates` (a method, not a closure: this is the hot loop). */
  private consider(key: number): void {
    const bit = key & (FILTER_BITS - 1);
    if (((this.filter[bit >>> 5] as number) & (1 << (bit & 31))) === 0) return;
    const bit2 = secondBit(key);
    if (((this.filter[bit2 >>> 5] as number) & (1 << (bit2 & 31))) === 0) return;
    const slots = this.byDeletion.get(key);
    if (slots === undefined) return;
    if (typeof slots === "number") this.candidate(slots);
    else for (const s of slots) this.candidate(s);
  }

  private candidate(slot: number): void {
    if (this.seen[slot] === this.stamp) return;
    this.seen[slot] = this.stamp;
    if (this.candidateCount === this.candidates.length) {
      const grown = new Int32Array(this.candidates.length * 2);
      grown.set(this.candidates);
      this.candidates = grown;
    }
    this.candidates[this.candidateCount++] = slot;
  }

  private confirm(query: string, slot: number): void {
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

/** How many candidate lists a DeletionIndex remembers. */
const CACHED = 4;

/** The words stored under the deletions of one prefix (the first `prefix` characters of `query`), in the order first found. */
interface CandidateList {
  query: string;
  /** The prefix's length; −1 for an empty entry. */
  prefix: number;
  twoEdits: boolean;
  slots: Int32Array;
  count: number;
}

/** The first `p` characters of `a` and `b` are the same (both are at least `p` long). */
function samePrefix(a: string, b: string, p: number): boolean {
  for (let i = 0; i < p; i++) if (a.charCodeAt(i) !== b.charCodeAt(i)) return false;
  return true;
}
