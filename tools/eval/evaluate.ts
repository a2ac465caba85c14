// Screens the corpus with the real engine (createScreener, the intel split loaded as a block list)
// and summarises the results. Shared by main.ts (report) and fit.ts (fitting).
import { createScreener, type EntityType, type IntelRecord, type Ruleset } from "@svc/core";
import type { CorpusItem, CorpusSet } from "./corpus.js";
import { CORPUS_SETS } from "./corpus.js";
import { calibration, confusionAt, familyStats, groupBy, pct, rocAuc, type CalibrationBin, type Confusion, type FamilyStat } from "./metrics.js";

export interface Row {
  readonly domain: string;
  readonly set: CorpusSet;
  readonly split: CorpusItem["split"];
  readonly malicious: boolean;
  readonly type: EntityType;
  readonly score: number;
  readonly level: string;
  /** Scored signals with points > 0, strongest first. */
  readonly signals: readonly { readonly code: string; readonly points: number }[];
  /** Raw findings before scoring. */
  readonly findings: readonly { readonly code: string; readonly family: string; readonly strength: number }[];
  /** Families with at least one finding awarded points > 0. */
  readonly families: readonly string[];
  /** Highest points awarded to a finding of each family. */
  readonly familyPoints: Readonly<Record<string, number>>;
  readonly intelHit: boolean;
  readonly allowlisted: boolean;
}

/** Thresholds the report uses: score ≥ 30 is `medium` or worse, ≥ 65 is `high` or worse. */
export const MEDIUM = 30;
export const HIGH = 65;

const FIXED_NOW = new Date("2026-01-01T00:00:00Z");

/** Screens every item as a domain. Deterministic: fixed clock and ids. */
export async function screenItems(items: readonly CorpusItem[], intel: readonly IntelRecord[], ruleset?: Ruleset): Promise<Row[]> {
  const screener = createScreener({
    intel,
    clock: { now: () => FIXED_NOW },
    ids: { next: (prefix: string) => `${prefix}_eval` },
    ...(ruleset ? { deps: { ruleset } } : {}),
  });
  const rows: Row[] = [];
  for (const item of items) {
    const r = await screener.screen(item.domain, { type: "domain" });
    if (!r.ok) throw new Error(`corpus domain ${item.domain} no longer parses: ${r.error.code}`);
    const points = new Map<string, number>();
    for (const s of r.verdict.signals) points.set(s.code, Math.max(points.get(s.code) ?? 0, s.points));
    const families = [...new Set(r.findings.filter((f) => (points.get(f.code) ?? 0) > 0).map((f) => f.family))];
    const familyPoints: Record<string, number> = {};
    for (const f of r.findings) familyPoints[f.family] = Math.max(familyPoints[f.family] ?? 0, points.get(f.code) ?? 0);
    rows.push({
      domain: item.domain,
      set: item.set,
      split: item.split,
      malicious: item.malicious,
      type: r.entity.type,
      score: r.verdict.risk_score,
      level: r.verdict.risk_level,
      signals: r.verdict.signals.filter((s) => s.points > 0).map((s) => ({ code: s.code, points: s.points })),
      findings: r.findings.map((f) => ({ code: f.code, family: f.family, strength: f.strength ?? 1 })),
      families,
      familyPoints,
      intelHit: r.findings.some((f) => f.code.startsWith("intel.blocklisted")),
      allowlisted: r.findings.some((f) => f.code === "intel.allowlisted"),
    });
  }
  return rows;
}

export interface SetStat {
  readonly set: CorpusSet;
  readonly n: number;
  /** For the phishing set: recall; for legitimate sets: false-positive rate. */
  readonly atMedium: number | null;
  readonly atHigh: number | null;
  readonly maxScore: number;
  readonly allowlisted: number;
  readonly intelHits: number;
}

export interface Summary {
  readonly malicious: number;
  readonly legit: number;
  readonly auc: number | null;
  readonly medium: Confusion;
  readonly high: Confusion;
  readonly sets: readonly SetStat[];
  readonly calibration: readonly CalibrationBin[];
  readonly families: readonly FamilyStat[];
  readonly types: readonly { readonly type: string; readonly n: number; readonly auc: number | null; readonly recallHigh: number | null; readonly fprHigh: number | null }[];
}

export function summarise(rows: readonly Row[]): Summary {
  const sets: SetStat[] = [];
  for (const set of CORPUS_SETS) {
    const rs = rows.filter((r) => r.set === set);
    if (rs.length === 0) continue;
    const rate = (t: number): number => rs.filter((r) => r.score >= t).length / rs.length;
    sets.push({ set, n: rs.length, atMedium: rate(MEDIUM), atHigh: rate(HIGH), maxScore: Math.max(...rs.map((r) => r.score)), allowlisted: rs.filter((r) => r.allowlisted).length, intelHits: rs.filter((r) => r.intelHit).length });
  }
  const types = [...groupBy(rows, (r) => r.type)].map(([type, rs]) => {
    const high = confusionAt(rs, HIGH);
    return { type, n: rs.length, auc: rocAuc(rs), recallHigh: high.recall, fprHigh: high.fpr };
  });
  return {
    malicious: rows.filter((r) => r.malicious).length,
    legit: rows.filter((r) => !r.malicious).length,
    auc: rocAuc(rows),
    medium: confusionAt(rows, MEDIUM),
    high: confusionAt(rows, HIGH),
    sets,
    calibration: calibration(rows),
    families: familyStats(rows),
    types,
  };
}

export interface Target {
  readonly name: string;
  readonly value: string;
  readonly pass: boolean;
}

/** The release targets, measured on the test split. */
export function targets(test: readonly Row[]): Target[] {
  const top = test.filter((r) => r.set === "top-sites");
  const topFlagged = top.filter((r) => r.score >= MEDIUM);
  const white = test.filter((r) => r.set === "eth-whitelist");
  const whiteFpr = white.length === 0 ? 1 : white.filter((r) => r.score >= HIGH).length / white.length;
  const phish = test.filter((r) => r.set === "phishing");
  const recall = phish.length === 0 ? 0 : phish.filter((r) => r.score >= HIGH).length / phish.length;
  const auc = rocAuc(test);
  return [
    { name: "no top-500 website scores ≥ 30", value: `${topFlagged.length} of ${top.length} (max score ${top.length ? Math.max(...top.map((r) => r.score)) : "–"})`, pass: topFlagged.length === 0 && top.length > 0 },
    { name: "FPR ≤ 1 % at high on the brand-resembling set (eth whitelist)", value: `${pct(whiteFpr, 2)} (${white.filter((r) => r.score >= HIGH).length} of ${white.length})`, pass: whiteFpr <= 0.01 },
    { name: "recall ≥ 60 % at high on phishing not in the loaded intel", value: `${pct(recall)} (${phish.filter((r) => r.score >= HIGH).length} of ${phish.length})`, pass: recall >= 0.6 },
    { name: "ROC AUC ≥ 0.9 (domains)", value: auc === null ? "–" : auc.toFixed(3), pass: auc !== null && auc >= 0.9 },
  ];
}
