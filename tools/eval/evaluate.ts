// Screens the corpus with the real engine (createScreener, bundled data only: no intel feed is
// loaded) and summarises the results. Used by main.ts (report) and tools/train (choosing).
import { createScreener, RULESET, type EntityType, type Screener } from "@svc/core";
import type { CorpusItem, CorpusSet } from "./corpus.js";
import { CORPUS_SETS, LEGIT_SETS } from "./corpus.js";
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
  /** Families with at least one finding awarded points > 0. */
  readonly families: readonly string[];
  /** Highest points awarded to a finding of each family. */
  readonly familyPoints: Readonly<Record<string, number>>;
  readonly allowlisted: boolean;
  /** "hosting <platform>" for a user's site on a hosting platform, else "tld .<tld>". */
  readonly where: string;
}

/** Thresholds the report uses: score ≥ 30 is `medium` or worse, ≥ 65 is `high` or worse. */
export const MEDIUM = 30;
export const HIGH = 65;

const FIXED_NOW = new Date("2026-01-01T00:00:00Z");

/** The screener the evaluation uses: bundled data, fixed clock and ids. */
export function evalScreener(): Screener {
  // SVC_EVAL_MODEL_COMBINATION=max|name compares the two ways the model meets the rules (decision 0023).
  const env = process.env.SVC_EVAL_MODEL_COMBINATION;
  const combination: "max" | "name" | undefined = env === "max" || env === "name" ? env : undefined;
  const deps = combination ? { deps: { ruleset: { ...RULESET, modelCombination: combination } } } : {};
  return createScreener({ clock: { now: () => FIXED_NOW }, ids: { next: (prefix: string) => `${prefix}_eval` }, ...deps });
}

/** Screens every item as a domain. Deterministic. */
export async function screenItems(items: readonly CorpusItem[], screener: Screener = evalScreener()): Promise<Row[]> {
  const rows: Row[] = [];
  for (const item of items) {
    const r = await screener.screen(item.domain, { type: "domain" });
    if (!r.ok) throw new Error(`corpus domain ${item.domain} no longer parses: ${r.error.code}`);
    const points = new Map<string, number>();
    for (const s of r.verdict.signals) points.set(s.code, Math.max(points.get(s.code) ?? 0, s.points));
    const families = [...new Set(r.findings.filter((f) => (points.get(f.code) ?? 0) > 0).map((f) => f.family))];
    const familyPoints: Record<string, number> = {};
    for (const f of r.findings) familyPoints[f.family] = Math.max(familyPoints[f.family] ?? 0, points.get(f.code) ?? 0);
    const a = r.entity.attributes;
    const hosting = r.findings.find((f) => f.code === "domain.free_hosting")?.evidence.platform;
    rows.push({
      domain: item.domain,
      set: item.set,
      split: item.split,
      malicious: item.malicious,
      type: r.entity.type,
      score: r.verdict.risk_score,
      level: r.verdict.risk_level,
      signals: r.verdict.signals.filter((s) => s.points > 0).map((s) => ({ code: s.code, points: s.points })),
      families,
      familyPoints,
      // svc's own allowlist, or a popular site (decision 0051): reported apart, out of every FPR denominator.
      allowlisted: r.findings.some((f) => f.code === "intel.allowlisted" || f.code === "domain.popular_site" || f.code === "domain.hosting_platform"),
      where: typeof hosting === "string" ? `hosting ${hosting}` : `tld .${String(a.tld ?? "?")}`,
    });
  }
  return rows;
}

export interface SetStat {
  readonly set: CorpusSet;
  /** Measured examples (allowlisted legitimate ones left out). */
  readonly n: number;
  /** For malicious sets: recall; for legitimate sets: false-positive rate. */
  readonly atMedium: number | null;
  readonly atHigh: number | null;
  readonly maxScore: number;
  /** Legitimate examples on svc's own allowlist: reported here, not counted in n. */
  readonly allowlisted: number;
}

export interface GroupStat {
  readonly key: string;
  readonly malicious: number;
  readonly recallHigh: number | null;
  readonly legit: number;
  readonly fprHigh: number | null;
}

export interface Summary {
  readonly malicious: number;
  readonly legit: number;
  readonly allowlisted: number;
  readonly auc: number | null;
  readonly medium: Confusion;
  readonly high: Confusion;
  readonly sets: readonly SetStat[];
  readonly calibration: readonly CalibrationBin[];
  readonly families: readonly FamilyStat[];
  readonly where: readonly GroupStat[];
}

/** Rows that count: allowlisted legitimate rows are reported apart, never in an FPR denominator. */
export const measured = (rows: readonly Row[]): Row[] => rows.filter((r) => r.malicious || !r.allowlisted);

export function groupStats(rows: readonly Row[], key: (r: Row) => string, minMalicious = 100): GroupStat[] {
  const out: GroupStat[] = [];
  const other: Row[] = [];
  for (const [k, rs] of groupBy(rows, key)) {
    if (rs.filter((r) => r.malicious).length < minMalicious) {
      other.push(...rs);
      continue;
    }
    out.push(stat(k, rs));
  }
  out.sort((a, b) => b.malicious - a.malicious || a.key.localeCompare(b.key));
  if (other.length > 0) out.push(stat("(all others)", other));
  return out;
}

function stat(key: string, rs: readonly Row[]): GroupStat {
  const high = confusionAt(rs, HIGH);
  return { key, malicious: high.tp + high.fn, recallHigh: high.recall, legit: high.fp + high.tn, fprHigh: high.fpr };
}

export function summarise(all: readonly Row[]): Summary {
  const rows = measured(all);
  const sets: SetStat[] = [];
  for (const set of CORPUS_SETS) {
    const every = all.filter((r) => r.set === set);
    const rs = rows.filter((r) => r.set === set);
    if (every.length === 0) continue;
    const rate = (t: number): number | null => (rs.length === 0 ? null : rs.filter((r) => r.score >= t).length / rs.length);
    sets.push({ set, n: rs.length, atMedium: rate(MEDIUM), atHigh: rate(HIGH), maxScore: Math.max(0, ...rs.map((r) => r.score)), allowlisted: every.length - rs.length });
  }
  return {
    malicious: rows.filter((r) => r.malicious).length,
    legit: rows.filter((r) => !r.malicious).length,
    allowlisted: all.length - rows.length,
    auc: rocAuc(rows),
    medium: confusionAt(rows, MEDIUM),
    high: confusionAt(rows, HIGH),
    sets,
    calibration: calibration(rows),
    families: familyStats(rows),
    where: groupStats(rows, (r) => r.where),
  };
}

export interface Target {
  readonly name: string;
  readonly value: string;
  readonly pass: boolean;
}

/** The targets (issue 14), measured on the held-back test months. */
export function targets(test: readonly Row[]): Target[] {
  const rows = measured(test);
  const top = rows.filter((r) => r.set === "top-sites");
  const topFlagged = top.filter((r) => r.score >= HIGH);
  const legit = rows.filter((r) => LEGIT_SETS.includes(r.set));
  const fp = legit.filter((r) => r.score >= HIGH).length;
  const fpr = legit.length === 0 ? 1 : fp / legit.length;
  const phish = rows.filter((r) => r.malicious);
  const tp = phish.filter((r) => r.score >= HIGH).length;
  const recall = phish.length === 0 ? 0 : tp / phish.length;
  const auc = rocAuc(rows);
  return [
    { name: "ROC AUC ≥ 0.92", value: auc === null ? "–" : auc.toFixed(3), pass: auc !== null && auc >= 0.92 },
    { name: "recall ≥ 55 % at ≥ 65", value: `${pct(recall)} (${tp} of ${phish.length})`, pass: recall >= 0.55 },
    { name: "FPR ≤ 1 % at ≥ 65 on the legitimate sets", value: `${pct(fpr, 2)} (${fp} of ${legit.length})`, pass: fpr <= 0.01 },
    { name: "no top site at ≥ 65", value: `${topFlagged.length} of ${top.length} (max score ${top.length ? Math.max(...top.map((r) => r.score)) : "–"})`, pass: topFlagged.length === 0 && top.length > 0 },
  ];
}
