import { describe, expect, it } from "vitest";
import { splitForGroup, splitForMonth, stableHash } from "./corpus.js";

describe("the time split", () => {
  it("trains on ≤ 2024-06, chooses on 2024-07 … 09 and holds back 2024-10 … 12", () => {
    expect(splitForMonth("2023-07")).toBe("train");
    expect(splitForMonth("2024-06")).toBe("train");
    expect(splitForMonth("2024-07")).toBe("valid");
    expect(splitForMonth("2024-09")).toBe("valid");
    expect(splitForMonth("2024-10")).toBe("test");
    expect(splitForMonth("2024-12")).toBe("test");
  });
  it("splits undated legitimate names by a stable hash, about 60 / 20 / 20", () => {
    const counts = { train: 0, valid: 0, test: 0 };
    for (let i = 0; i < 10_000; i++) counts[splitForGroup(`site${i}.com`)]++;
    expect(counts.train / 10_000).toBeCloseTo(0.6, 1);
    expect(counts.valid / 10_000).toBeCloseTo(0.2, 1);
    expect(counts.test / 10_000).toBeCloseTo(0.2, 1);
    expect(splitForGroup("example.com")).toBe(splitForGroup("example.com"));
    expect(stableHash("a")).not.toBe(stableHash("b"));
  });
});
