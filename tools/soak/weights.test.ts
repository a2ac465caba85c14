import { describe, expect, it } from "vitest";
import { MIX_WEIGHTS, parseWeights } from "./mix.js";

describe("soak mix --weights", () => {
  it("reads kind:percent pairs summing to 100", () => {
    expect(parseWeights("screen:71,batch:10,history:10,report:5,async:4,export:0")).toEqual([["screen", 71], ["batch", 10], ["history", 10], ["report", 5], ["async", 4], ["export", 0]]);
    expect(parseWeights("screen:100")).toEqual([["screen", 100]]);
    expect(MIX_WEIGHTS.reduce((a, [, w]) => a + w, 0)).toBe(100);
  });
  it.each([
    ["screen:90", /sum to 90/],
    ["screen:50,upload:50", /"upload:50" is not kind:percent/],
    ["screen:x", /"screen:x" is not kind:percent/],
  ])("refuses %s", (text, message) => {
    expect(() => parseWeights(text)).toThrow(message);
  });
});
