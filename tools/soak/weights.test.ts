import { describe, expect, it } from "vitest";
import { countedSpan, MEASURE_SECONDS, MIX_WEIGHTS, parseWeights } from "./mix.js";

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

describe("soak mix capacity phase", () => {
  it("counts answers only once an export's window has filled (the default phase does)", () => {
    expect(countedSpan(MEASURE_SECONDS * 1000)).toEqual({ from: 70_000, to: MEASURE_SECONDS * 1000, steady: true });
    expect(countedSpan(90_000)).toEqual({ from: 70_000, to: 90_000, steady: true });
  });
  it("counts a short phase's last two thirds and says it is not steady", () => {
    expect(countedSpan(30_000)).toEqual({ from: 10_000, to: 30_000, steady: false });
    expect(countedSpan(89_999).steady).toBe(false);
  });
});
