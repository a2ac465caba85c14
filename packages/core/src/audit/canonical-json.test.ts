import { describe, expect, it } from "vitest";
import { canonicalJson } from "./canonical-json.js";

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

  it("refuses what JSON cannot carry", () => {
    expect(() => canonicalJson({ n: Number.NaN })).toThrow(/\$\.n is not a finite number/);
    expect(() => canonicalJson({ f: () => 1 })).toThrow(TypeError);
    expect(() => canonicalJson(10n)).toThrow(TypeError);
  });
});
