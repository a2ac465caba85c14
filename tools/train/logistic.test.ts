import { describe, expect, it } from "vitest";
import { fitLogistic, fitPlatt, logLoss, type Example } from "./logistic.js";

const ex = (index: number[], y: 0 | 1): Example => ({ index: Int32Array.from(index), value: Float32Array.from(index.map(() => 1)), y, weight: 1 });

describe("logistic regression", () => {
  it("learns which features mark the positive class, and lowers the loss", () => {
    // feature 0: bias; 1: only on positives; 2: only on negatives; 3: on both.
    const xs = [...Array.from({ length: 50 }, () => ex([0, 1, 3], 1)), ...Array.from({ length: 50 }, () => ex([0, 2, 3], 0))];
    const w0 = new Float32Array(4);
    const w = fitLogistic(xs, 4, { l2: 1e-4, epochs: 5, rate: 0.1 });
    expect(w[1]).toBeGreaterThan(1);
    expect(w[2]).toBeLessThan(-1);
    expect(logLoss(w, xs)).toBeLessThan(logLoss(w0, xs) / 4);
  });
  it("is deterministic", () => {
    const xs = [ex([0, 1], 1), ex([0, 2], 0), ex([1, 2], 1)];
    expect(Array.from(fitLogistic(xs, 3, { l2: 1e-3, epochs: 3, rate: 0.1 }))).toEqual(Array.from(fitLogistic(xs, 3, { l2: 1e-3, epochs: 3, rate: 0.1 })));
  });
});

describe("Platt scaling", () => {
  it("recovers the scale and offset of log-odds that are themselves calibrated", () => {
    // y drawn so that P(y=1 | z) = σ(2z − 1) exactly, in expectation: weights carry the probabilities.
    const xs: { z: number; y: 0 | 1; weight: number }[] = [];
    for (let z = -4; z <= 4; z += 0.25) {
      const p = 1 / (1 + Math.exp(-(2 * z - 1)));
      xs.push({ z, y: 1, weight: p }, { z, y: 0, weight: 1 - p });
    }
    const { a, b } = fitPlatt(xs);
    expect(a).toBeCloseTo(2, 3);
    expect(b).toBeCloseTo(-1, 3);
  });
});
