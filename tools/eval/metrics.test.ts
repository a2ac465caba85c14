import { fc, test as fcTest } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { calibration, confusionAt, familyStats, groupBy, pct, rocAuc, type Scored } from "./metrics.js";

const ex = (score: number, malicious: boolean): Scored => ({ score, malicious });

describe("confusionAt", () => {
  const xs = [ex(90, true), ex(70, true), ex(40, true), ex(10, true), ex(65, false), ex(30, false), ex(0, false), ex(0, false)];

  it("counts score ≥ threshold as flagged", () => {
    expect(confusionAt(xs, 65)).toEqual({ threshold: 65, tp: 2, fp: 1, tn: 3, fn: 2, precision: 2 / 3, recall: 0.5, fpr: 0.25 });
    expect(confusionAt(xs, 30)).toMatchObject({ tp: 3, fp: 2, tn: 2, fn: 1, precision: 0.6, recall: 0.75, fpr: 0.5 });
  });

  it("gives null for undefined ratios instead of NaN", () => {
    expect(confusionAt([ex(10, false)], 65)).toMatchObject({ precision: null, recall: null, fpr: 0 });
    expect(confusionAt([ex(80, true)], 65)).toMatchObject({ precision: 1, recall: 1, fpr: null });
    expect(confusionAt([], 30)).toMatchObject({ precision: null, recall: null, fpr: null });
  });
});

describe("rocAuc", () => {
  it("is 1 for a perfect ranking and 0 for a reversed one", () => {
    expect(rocAuc([ex(90, true), ex(80, true), ex(10, false), ex(0, false)])).toBe(1);
    expect(rocAuc([ex(0, true), ex(10, true), ex(80, false), ex(90, false)])).toBe(0);
  });

  it("counts ties as one half", () => {
    expect(rocAuc([ex(50, true), ex(50, false)])).toBe(0.5);
    expect(rocAuc([ex(0, true), ex(0, true), ex(0, false), ex(0, false), ex(0, false)])).toBe(0.5);
    // pairs: (60 vs 60) ½, (60 vs 10) 1, (20 vs 60) 0, (20 vs 10) 1 → 2.5 / 4
    expect(rocAuc([ex(60, true), ex(20, true), ex(60, false), ex(10, false)])).toBe(0.625);
  });

  it("is null when a class is missing", () => {
    expect(rocAuc([ex(1, true)])).toBeNull();
    expect(rocAuc([ex(1, false)])).toBeNull();
    expect(rocAuc([])).toBeNull();
  });

  const scored = fc.array(fc.record({ score: fc.integer({ min: 0, max: 100 }), malicious: fc.boolean() }), { maxLength: 60 });

  fcTest.prop([scored])("equals the pairwise definition", (xs) => {
    const pos = xs.filter((x) => x.malicious);
    const neg = xs.filter((x) => !x.malicious);
    const auc = rocAuc(xs);
    if (pos.length === 0 || neg.length === 0) {
      expect(auc).toBeNull();
      return;
    }
    let wins = 0;
    for (const p of pos) for (const n of neg) wins += p.score > n.score ? 1 : p.score === n.score ? 0.5 : 0;
    expect(auc).toBeCloseTo(wins / (pos.length * neg.length), 10);
  });

  fcTest.prop([scored])("does not depend on the order of the examples", (xs) => {
    expect(rocAuc([...xs].reverse())).toBe(rocAuc(xs));
  });
});

describe("calibration", () => {
  it("bins 0–9 … 90–100 with the malicious fraction", () => {
    const bins = calibration([ex(0, false), ex(9, true), ex(10, true), ex(95, true), ex(100, true), ex(100, false)]);
    expect(bins).toHaveLength(10);
    // 4 malicious, 2 legitimate: balanced weights each malicious example ½ as much as a legitimate one.
    expect(bins[0]).toEqual({ lo: 0, hi: 9, count: 2, malicious: 1, fraction: 0.5, balanced: 1 / 3 });
    expect(bins[1]).toEqual({ lo: 10, hi: 19, count: 1, malicious: 1, fraction: 1, balanced: 1 });
    expect(bins[5]).toEqual({ lo: 50, hi: 59, count: 0, malicious: 0, fraction: null, balanced: null });
    expect(bins[9]).toMatchObject({ lo: 90, hi: 100, count: 3, malicious: 2, fraction: 2 / 3 });
    expect(bins[9]?.balanced).toBeCloseTo(0.5, 12);
  });

  fcTest.prop([fc.array(fc.record({ score: fc.integer({ min: 0, max: 100 }), malicious: fc.boolean() }))])("puts every example in exactly one bin", (xs) => {
    const bins = calibration(xs);
    expect(bins.reduce((n, b) => n + b.count, 0)).toBe(xs.length);
    expect(bins.reduce((n, b) => n + b.malicious, 0)).toBe(xs.filter((x) => x.malicious).length);
    for (const b of bins) if (b.balanced !== null) expect(b.balanced).toBeGreaterThanOrEqual(0);
  });

  it("balanced equals the plain fraction when the classes are the same size", () => {
    const bins = calibration([ex(5, true), ex(5, false), ex(7, false), ex(80, true)]);
    expect(bins[0]?.balanced).toBeCloseTo(bins[0]?.fraction as number, 12);
  });
});

describe("familyStats", () => {
  it("counts a family once per example, on each class", () => {
    const stats = familyStats([
      { malicious: true, families: ["impersonation", "lexical", "lexical"] },
      { malicious: true, families: ["lexical"] },
      { malicious: true, families: [] },
      { malicious: false, families: ["lexical"] },
      { malicious: false, families: [] },
    ]);
    expect(stats).toEqual([
      { family: "lexical", firedMalicious: 2, firedLegit: 1, tpr: 2 / 3, fpr: 0.5, precision: 2 / 3, auc: null },
      { family: "impersonation", firedMalicious: 1, firedLegit: 0, tpr: 1 / 3, fpr: 0, precision: 1, auc: null },
    ]);
  });

  it("ranks by each family's own points for its ROC AUC (absent = 0, ties count half)", () => {
    const stats = familyStats([
      { malicious: true, families: ["impersonation"], familyPoints: { impersonation: 80 } },
      { malicious: true, families: ["lexical"], familyPoints: { lexical: 20 } },
      { malicious: false, families: ["lexical"], familyPoints: { lexical: 10 } },
      { malicious: false, families: [], familyPoints: {} },
    ]);
    // impersonation: 80 beats both legit (2 wins), 0 ties both (2 halves) → (2 + 1) / 4
    expect(stats.find((s) => s.family === "impersonation")?.auc).toBe(0.75);
    // lexical: 0 (malicious) vs 10 loses, vs 0 ties; 20 beats both → (0 + 0.5 + 2) / 4
    expect(stats.find((s) => s.family === "lexical")?.auc).toBe(0.625);
  });

  it("leaves fpr undefined without legitimate examples", () => {
    expect(familyStats([{ malicious: true, families: ["intel"] }])[0]).toMatchObject({ tpr: 1, fpr: null });
  });
});

describe("helpers", () => {
  it("groups in first-seen order", () => {
    expect([...groupBy(["b1", "a1", "b2"], (s) => s[0] as string)]).toEqual([["b", ["b1", "b2"]], ["a", ["a1"]]]);
  });

  it("formats percentages", () => {
    expect(pct(0.12345)).toBe("12.3 %");
    expect(pct(1, 0)).toBe("100 %");
    expect(pct(null)).toBe("–");
  });
});
