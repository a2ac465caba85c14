import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PackedStringMap } from "./packed-string-map.js";

const key = fc.string({ unit: "binary", maxLength: 12 });
const value = fc.integer({ min: 0, max: 0xffffffff });

describe("PackedStringMap", () => {
  it("answers as the Map it was made from: get, has, size, keys in order", () =>
    fc.assert(
      fc.property(fc.array(fc.tuple(key, value), { maxLength: 200 }), fc.array(key, { maxLength: 50 }), (entries, probes) => {
        const map = new Map(entries);
        const packed = PackedStringMap.from(entries);
        expect(packed.size).toBe(map.size);
        expect([...packed.keys()]).toEqual([...map.keys()]);
        for (const k of [...map.keys(), ...probes]) {
          expect(packed.get(k)).toBe(map.get(k));
          expect(packed.has(k)).toBe(map.has(k));
        }
      }),
      { numRuns: 300 },
    ));

  it("tells apart keys that share a hash slot, prefixes and the empty string", () => {
    const keys = ["", "a", "ab", "abc", "b", "ba", ...Array.from({ length: 5000 }, (_, i) => `k${i}`)];
    const packed = PackedStringMap.from(keys.map((k, i) => [k, i] as const));
    keys.forEach((k, i) => expect(packed.get(k)).toBe(i));
    for (const absent of ["abcd", "c", "k5000", "k-1", "\u0000"]) expect(packed.has(absent)).toBe(false);
  });

  it("holds nothing when made from nothing", () => {
    const packed = PackedStringMap.from([]);
    expect(packed.size).toBe(0);
    expect(packed.get("")).toBeUndefined();
    expect([...packed.keys()]).toEqual([]);
  });

  it("refuses a value it cannot hold", () => {
    for (const v of [-1, 0.5, 2 ** 32, Number.NaN]) expect(() => PackedStringMap.from([["x", v]])).toThrow(RangeError);
  });
});
