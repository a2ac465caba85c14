import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DeletionIndex } from "./deletion-index.js";
import { boundedDamerauLevenshtein } from "./edit-distance.js";

/** Textbook optimal-string-alignment distance, full table, no early exit: the reference. */
function osa(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

const small = fc.string({ unit: fc.constantFrom(..."abcdeilmnorst01-"), maxLength: 14 });

describe("boundedDamerauLevenshtein", () => {
  it.each([
    ["paypal", "paypal", 0],
    ["paypal", "paypa1", 1],
    ["metamask", "metamsak", 1],
    ["paypal", "paypall", 1],
    ["paypal", "papal", 1],
    ["amazon", "arnazon", 2],
    ["microsoft", "mikrosofft", 2],
    ["", "abc", 3],
  ])("%s ↔ %s = %i", (a, b, d) => {
    expect(boundedDamerauLevenshtein(a, b, 3)).toBe(d);
  });

  it("returns max + 1 as soon as the distance must exceed max", () => {
    expect(boundedDamerauLevenshtein("paypal", "coinbase", 2)).toBe(3);
    expect(boundedDamerauLevenshtein("a", "abcdef", 1)).toBe(2);
  });

  it("agrees with the full table whenever the true distance is within the bound", () =>
    fc.assert(
      fc.property(small, small, fc.integer({ min: 0, max: 3 }), (a, b, max) => {
        const truth = osa(a, b);
        expect(boundedDamerauLevenshtein(a, b, max)).toBe(truth <= max ? truth : max + 1);
      }),
      { numRuns: 2000 },
    ));

  it("handles strings longer than its scratch rows", () => {
    const long = "x".repeat(100);
    expect(boundedDamerauLevenshtein(long, `${long}y`, 1)).toBe(1);
  });
});

describe("DeletionIndex (symmetric deletion, prefix-limited)", () => {
  const words = ["metamask", "microsoft", "paypal", "coinbase", "wellsfargo", "americanexpress", "binance", "kraken"];
  const limit = (w: string): 1 | 2 => (w.length >= 9 ? 2 : 1);
  const index = new DeletionIndex();
  words.forEach((w, i) => index.add(w, i, limit(w)));

  /** Brute force: the closest word within its own limit, longer word first on ties. */
  function brute(q: string): { id: number; distance: number } | null {
    let best: { id: number; distance: number } | null = null;
    words.forEach((w, id) => {
      if (w === q) return;
      const d = osa(q, w);
      if (d > limit(w)) return;
      if (!best || d < best.distance || (d === best.distance && w.length > words[best.id]!.length)) best = { id, distance: d };
    });
    return best;
  }

  it.each([
    ["metamsak", "metamask", 1],
    ["paypa1", "paypal", 1],
    ["mikrosofft", "microsoft", 2],
    ["wellsfrago", "wellsfargo", 1],
    ["americanexprss", "americanexpress", 1],
    ["xxmetamask", null, 0],
  ])("%s → %s", (q, word, distance) => {
    const hit = index.nearest(q);
    if (word === null) expect(hit).toBeNull();
    else expect(hit).toEqual({ id: words.indexOf(word), distance });
  });

  it("finds exactly what a brute-force scan finds, for random edits of the words", () => {
    const edited = fc
      .tuple(fc.constantFrom(...words), fc.array(fc.tuple(fc.nat(20), fc.constantFrom(..."abcekmnorsx"), fc.constantFrom("ins", "del", "sub", "swap")), { maxLength: 3 }))
      .map(([w, edits]) => {
        let s = w;
        for (const [at, ch, op] of edits) {
          const i = at % (s.length + 1);
          if (op === "ins") s = s.slice(0, i) + ch + s.slice(i);
          else if (op === "del") s = s.slice(0, i) + s.slice(i + 1);
          else if (op === "sub") s = s.slice(0, i) + ch + s.slice(i + 1);
          else if (i + 1 < s.length) s = s.slice(0, i) + s[i + 1] + s[i] + s.slice(i + 2);
        }
        return s;
      });
    fc.assert(
      fc.property(edited, (q) => {
        expect(index.nearest(q)).toEqual(brute(q));
      }),
      { numRuns: 3000 },
    );
  });

  it("answers readings that share a prefix one after another as it answers each alone", () => {
    // Readings of one label, as a check asks for them: as written, with more glued on, cut short.
    const readings = fc.tuple(fc.constantFrom(...words), fc.stringMatching(/^[a-z0-9]{0,6}$/), fc.nat(12)).map(([w, extra, cut]) => {
      const typo = w.slice(0, 7) + extra + w.slice(7);
      const otherFirst = String.fromCharCode(typo.charCodeAt(0) ^ 1) + typo.slice(1);
      return [typo, typo.replace(/\d/g, ""), w + extra, otherFirst, typo.slice(0, Math.max(7, typo.length - cut)), w.slice(0, 7) + "q"];
    });
    fc.assert(
      fc.property(readings, (qs) => {
        for (const q of qs) expect(index.nearest(q), q).toEqual(brute(q));
      }),
      { numRuns: 2000 },
    );
  });

  it("finds a word added after a query with the same prefix", () => {
    const own = new DeletionIndex();
    own.add("metamask", 0, 1);
    expect(own.nearest("metamasks")).toEqual({ id: 0, distance: 1 });
    own.add("metamasks2", 1, 1);
    expect(own.nearest("metamasks")).toEqual({ id: 1, distance: 1 });
  });
});
