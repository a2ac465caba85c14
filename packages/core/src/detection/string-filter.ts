/**
 * A bit filter in front of a large string-keyed map. Almost every string a check looks up is in
 * no such map (no brand table holds an ordinary label; no block list holds most names screened),
 * and a `Map` lookup that finds nothing still hashes the string and walks a table megabytes wide:
 * a few cache misses each. Testing two bits of a much smaller array costs one or two, and says
 * "certainly absent" for all but about one string in a hundred. It never says "absent" for a
 * string that was added, so the map stays the authority and answers are unchanged.
 */

const BASE = 0x01000193;

/** murmur3's 32-bit finaliser: spreads the polynomial hash over all bits. */
function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h | 0;
}

/** One step of `hashString`'s polynomial: for a caller hashing a string it never builds. */
export const hashStep = (h: number, c: number): number => (Math.imul(h, BASE) + c) | 0;

/** The last step of `hashString`: the polynomial (started at 0, fed by `hashStep`), mixed. */
export const hashFinish = (h: number): number => mix(h);

/** Polynomial hash of the UTF-16 code units of `s`, mixed. Read in one pass, no string built. */
export function hashString(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, BASE) + s.charCodeAt(i)) | 0;
  return mix(h);
}

/**
 * `hashString` of the string made by replacing each UTF-16 unit `c` of `s` with `table[c]`
 * (units beyond the table stand for themselves), computed without building that string. Each
 * replacement's own hash and length are precomputed by `replacementHashes`, since the polynomial
 * hash of a concatenation is hash(a)·BASE^|b| + hash(b).
 */
export function hashReplaced(s: string, table: ReplacementHashes): number {
  const { mul, add } = table;
  let h = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h = c < mul.length ? (Math.imul(h, mul[c] as number) + (add[c] as number)) | 0 : (Math.imul(h, BASE) + c) | 0;
  }
  return mix(h);
}

export interface ReplacementHashes {
  /** BASE^(length of the replacement), per code unit. */
  readonly mul: Int32Array;
  /** Unmixed polynomial hash of the replacement, per code unit. */
  readonly add: Int32Array;
}

/** What `hashReplaced` needs to know of a replacement table (`table[c]` replaces code unit `c`). */
export function replacementHashes(table: readonly string[]): ReplacementHashes {
  const mul = new Int32Array(table.length);
  const add = new Int32Array(table.length);
  for (let c = 0; c < table.length; c++) {
    const r = table[c] as string;
    let m = 1;
    let h = 0;
    for (let i = 0; i < r.length; i++) {
      m = Math.imul(m, BASE);
      h = (Math.imul(h, BASE) + r.charCodeAt(i)) | 0;
    }
    mul[c] = m;
    add[c] = h;
  }
  return { mul, add };
}

/** Bits of one block: a 64-byte cache line. */
const BLOCK_BITS = 512;
const BLOCK_WORDS = BLOCK_BITS / 32;

/**
 * Two bits per member in 2^`log2Bits` bits, both in one block of 512 (a "blocked" filter): the
 * low bits of the hash choose the block, two other stretches of it the bits inside. A lookup
 * then touches one cache line instead of two; in a filter of megabytes, held for a million-entry
 * index, each is a likely cache miss. With n members the chance that an absent string passes is
 * a little above (1 − e^(−2n/2^log2Bits))², as blocks fill unevenly.
 */
export class StringFilter {
  private readonly bits: Uint32Array;
  /** Block numbers are `hash & blockMask`. */
  private readonly blockMask: number;

  constructor(log2Bits: number) {
    const blocks = Math.max(1, 2 ** log2Bits / BLOCK_BITS);
    this.bits = new Uint32Array(blocks * BLOCK_WORDS);
    this.blockMask = blocks - 1;
  }

  /** A filter sized for `count` members at about 1 % false positives (16 bits per member). */
  static forCount(count: number): StringFilter {
    return new StringFilter(Math.max(10, Math.ceil(Math.log2(Math.max(1, count) * 16))));
  }

  /** Adds a member by its `hashString` (or `hashReplaced`) value. */
  addHash(h: number): void {
    const block = (h & this.blockMask) * BLOCK_WORDS;
    this.set(block, h >>> 23);
    this.set(block, second(h) & (BLOCK_BITS - 1));
  }

  add(s: string): void {
    this.addHash(hashString(s));
  }

  /** False only when no member has this hash. */
  mayContainHash(h: number): boolean {
    const block = (h & this.blockMask) * BLOCK_WORDS;
    return this.test(block, h >>> 23) && this.test(block, second(h) & (BLOCK_BITS - 1));
  }

  /** Sets bit `bit` (0..511) of the block starting at word `block`. */
  private set(block: number, bit: number): void {
    const w = block + (bit >>> 5);
    this.bits[w] = (this.bits[w] as number) | (1 << (bit & 31));
  }

  private test(block: number, bit: number): boolean {
    return ((this.bits[block + (bit >>> 5)] as number) & (1 << (bit & 31))) !== 0;
  }
}

/** The second bit position: the hash multiplied by an odd constant and rotated, so its high bits count too. */
function second(h: number): number {
  const x = Math.imul(h, 0x9e3779b1);
  return (x >>> 15) | (x << 17);
}
