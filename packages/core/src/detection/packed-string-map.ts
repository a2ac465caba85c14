import { hashFinish, hashStep, hashString } from "./string-filter.js";

/** What a reader of a `PackedStringMap` may use: a `ReadonlyMap<string, number>`'s lookups. */
export interface ReadonlyStringMap {
  readonly size: number;
  get(key: string): number | undefined;
  has(key: string): boolean;
  /** In insertion order. */
  keys(): IterableIterator<string>;
}

/**
 * A map from strings to integers in [0, 2³²), packed for memory: the keys' characters one after
 * the other in one typed array (one byte each while every character fits, two otherwise), where
 * each key ends in another, the values in a third, and an open-addressing table of key numbers.
 * A `Map` of 130,000 short strings costs about 60 bytes an entry in V8's heap (each string's own
 * object, the table's slots); packed, about 25, outside it. And a key added is read and copied,
 * not kept: the strings it was given die young instead of filling the old generation with
 * objects that leave holes when the map is dropped (docs/decisions/0099).
 * It answers as a `Map` does: `get`, `has`, `size`, and `keys()` in insertion order.
 */
export class PackedStringMap implements ReadonlyStringMap {
  #size = 0;
  #chars: Uint8Array | Uint16Array = new Uint8Array(256);
  #used = 0;
  /** Where key i ends in #chars; it starts where key i − 1 ends. */
  #ends = new Uint32Array(16);
  #values = new Uint32Array(16);
  /** Key number + 1 per slot, 0 for none: a key's slot is its hash's low bits, or the next free one. */
  #slots = new Uint32Array(32);

  /** The entries as `new Map(entries)` holds them (of equal keys, the last value in the first's place). */
  static from(entries: Iterable<readonly [string, number]>): PackedStringMap {
    const map = new PackedStringMap();
    for (const [k, v] of entries) map.set(k, v);
    return map.trim();
  }

  get size(): number {
    return this.#size;
  }

  get(key: string): number | undefined {
    const i = this.#slots[this.#slotOf(key)] as number;
    return i === 0 ? undefined : this.#values[i - 1];
  }

  has(key: string): boolean {
    return this.#slots[this.#slotOf(key)] !== 0;
  }

  set(key: string, value: number): this {
    if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) throw new RangeError(`PackedStringMap: value ${value} is not an integer in [0, 2^32)`);
    const slot = this.#slotOf(key);
    const found = this.#slots[slot] as number;
    if (found !== 0) {
      this.#values[found - 1] = value;
      return this;
    }
    const i = this.#size;
    if (i === this.#ends.length) {
      this.#ends = grown(this.#ends, i * 2);
      this.#values = grown(this.#values, i * 2);
    }
    let chars = this.#chars;
    if (this.#used + key.length > chars.length) chars = grown(chars, Math.max(chars.length * 2, this.#used + key.length));
    for (let k = 0; k < key.length; k++) {
      const c = key.charCodeAt(k);
      if (c > 0xff && chars instanceof Uint8Array) chars = grown(chars, chars.length, Uint16Array);
      chars[this.#used + k] = c;
    }
    this.#chars = chars;
    this.#used += key.length;
    this.#ends[i] = this.#used;
    this.#values[i] = value;
    this.#slots[slot] = i + 1;
    this.#size = i + 1;
    if (this.#size * 2 > this.#slots.length) this.#rehash(this.#slots.length * 2);
    return this;
  }

  *keys(): IterableIterator<string> {
    for (let i = 0; i < this.#size; i++) yield this.#key(i);
  }

  /** Gives back the room kept for more keys; returns this map. */
  trim(): this {
    this.#chars = grown(this.#chars, this.#used);
    this.#ends = grown(this.#ends, this.#size);
    this.#values = grown(this.#values, this.#size);
    let slots = 32;
    while (slots < this.#size * 2) slots *= 2;
    if (slots !== this.#slots.length) this.#rehash(slots);
    return this;
  }

  #start(i: number): number {
    return i === 0 ? 0 : (this.#ends[i - 1] as number);
  }

  #key(i: number): string {
    return String.fromCharCode(...this.#chars.subarray(this.#start(i), this.#ends[i]));
  }

  /** The slot holding `key`, or the free slot where it would go. */
  #slotOf(key: string): number {
    const slots = this.#slots;
    const mask = slots.length - 1;
    const chars = this.#chars;
    for (let slot = hashString(key) & mask; ; slot = (slot + 1) & mask) {
      const entry = slots[slot] as number;
      if (entry === 0) return slot;
      const start = this.#start(entry - 1);
      if ((this.#ends[entry - 1] as number) - start !== key.length) continue;
      let k = 0;
      while (k < key.length && chars[start + k] === key.charCodeAt(k)) k++;
      if (k === key.length) return slot;
    }
  }

  #rehash(size: number): void {
    const slots = new Uint32Array(size);
    const mask = size - 1;
    const chars = this.#chars;
    for (let i = 0; i < this.#size; i++) {
      // hashString of the key, read from #chars.
      let h = 0;
      for (let k = this.#start(i); k < (this.#ends[i] as number); k++) h = hashStep(h, chars[k] as number);
      let slot = hashFinish(h) & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = i + 1;
    }
    this.#slots = slots;
  }
}

/** A copy of `a` with room for `length` elements (fewer: cut), of the same kind or `Kind`. */
function grown<T extends Uint8Array | Uint16Array | Uint32Array>(a: T, length: number, Kind?: new (n: number) => Uint8Array | Uint16Array | Uint32Array): T {
  const b = new (Kind ?? (a.constructor as new (n: number) => T))(length) as T;
  b.set(a.length > length ? a.subarray(0, length) : a);
  return b;
}
