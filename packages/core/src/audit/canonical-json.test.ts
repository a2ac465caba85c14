import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { canonicalJson, canonicalJsonOnce, serialisedOnce } from "./canonical-json.js";

describe("canonicalJson", () => {
  it("sorts keys at every level and drops undefined members, whatever the input order", () => {
    const a = { b: 1, a: { z: [3, { y: true, x: null }], m: "é\n" }, u: undefined };
    const b = { a: { m: "é\n", z: [3, { x: null, y: true }] }, b: 1 };
    expect(canonicalJson(a)).toBe('{"a":{"m":"é\\n","z":[3,{"x":null,"y":true}]},"b":1}');
    expect(canonicalJson(b)).toBe(canonicalJson(a));
  });

  it("writes numbers in their shortest round-trip form, and undefined array items as null", () => {
    expect(canonicalJson([1.0, 0.1 + 0.2, 1e21, -0, undefined])).toBe("[1,0.30000000000000004,1e+21,0,null]");
  });

  const text = fc.oneof(
    fc.string({ unit: "binary" }),
    fc.string({ unit: fc.constantFrom("a", "é", "\u0000", "\u001f", "\u007f", "\u0085", '"', "\\", "\ud83d", "\ude00", "\ud83d\ude00", "\u2028") }),
  );
  test.prop([text, text])("writes strings and keys as JSON.stringify does (escapes, lone surrogates, pairs)", (s, k) => {
    expect(canonicalJson(s)).toBe(JSON.stringify(s));
    expect(canonicalJson({ [k]: s })).toBe(JSON.stringify({ [k]: s }));
  });

  it("refuses what JSON cannot carry", () => {
    expect(() => canonicalJson({ n: Number.NaN })).toThrow(/\$\.n is not a finite number/);
    expect(() => canonicalJson({ f: () => 1 })).toThrow(TypeError);
    expect(() => canonicalJson(10n)).toThrow(TypeError);
  });

  it("serialises an object once: the same text, reused alone and inside a larger value", () => {
    const verdict = { risk_score: 12, signals: [{ code: "a", points: 0 }], entity: { value: "x.com", type: "domain" } };
    expect(serialisedOnce(verdict)).toBeUndefined();
    const text = canonicalJsonOnce(verdict);
    expect(text).toBe(canonicalJson({ ...verdict }));
    expect(serialisedOnce(verdict)).toBe(text);
    expect(JSON.parse(text)).toEqual(verdict);
    // Embedded: the stored text is used as is (shown by a memo that no longer matches the object).
    (verdict as { risk_score: number }).risk_score = 99;
    expect(canonicalJson({ b: verdict, a: 1 })).toBe(`{"a":1,"b":${text}}`);
    expect(canonicalJsonOnce(verdict)).toBe(text);
    expect(serialisedOnce("text")).toBeUndefined();
  });
});
