import { describe, expect, it } from "vitest";
import { createScreener, defaultReference } from "../../screener.js";
import { modelReading } from "../detectors/domain-model.js";
import pinned from "./domain-model.pinned.json" with { type: "json" };

// The model's outputs on 400-odd names, written by tools/train/pin.ts with the run-time code of
// the model's release: any change to feature extraction, scoring or explanations must leave them
// bit-identical (raw logit, calibrated probability, score, reasons and the finding's text).
describe("the bundled domain model's outputs are pinned", () => {
  const ref = defaultReference();
  const rulesOnly = createScreener({ domainModel: null, clock: { now: () => new Date("2026-01-01T00:00:00Z") }, ids: { next: (p: string) => `${p}_pin` } });

  it("was pinned for this model (run `npx tsx tools/train/pin.ts` after training a new one)", () => {
    expect(pinned.model).toBe(ref.domainModel?.version);
    expect(pinned.outputs.length).toBeGreaterThan(400);
    // The set is not degenerate: low, medium, high and critical scores, words and findings.
    const scores = pinned.outputs.map((o) => o.score);
    expect(Math.min(...scores)).toBeLessThan(10);
    expect(Math.max(...scores)).toBe(100);
    expect(scores.filter((s) => s >= 30 && s < 65).length).toBeGreaterThan(20);
    expect(pinned.outputs.filter((o) => o.words.some((w) => w.startsWith("project:"))).length).toBeGreaterThan(20);
  });

  it("gives every pinned name exactly its pinned output", async () => {
    const differ: string[] = [];
    for (const want of pinned.outputs) {
      const r = await rulesOnly.screen(want.input);
      if (!r.ok) throw new Error(`${want.input}: ${r.error.code}`);
      const m = modelReading(r.entity, r.findings, ref);
      const f = m?.finding ?? null;
      const got = m && { input: want.input, logit: m.logit, probability: m.probability, score: m.score, reasons: m.reasons.map((x) => ({ feature: x.feature, weight: x.weight })), words: [...m.words], finding: f ? { message: f.message, evidence: f.evidence, strength: f.strength } : null };
      if (JSON.stringify(got) !== JSON.stringify(want)) differ.push(`${want.input}: ${JSON.stringify(got)}`);
    }
    expect(differ).toEqual([]);
  });
});
