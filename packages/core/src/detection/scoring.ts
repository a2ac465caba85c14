import { RULESET, severityFor, type Ruleset } from "./ruleset.js";
import type { Confidence, Coverage, Family, Finding, RecommendedAction, RiskLevel, Signal, Thresholds } from "./types.js";

export interface Score {
  readonly risk_score: number;
  readonly risk_level: RiskLevel;
  readonly recommended_action: RecommendedAction;
  readonly confidence: Confidence;
  readonly confidence_score: number;
  readonly signals: readonly Signal[];
}

export const riskLevelFor = (score: number): RiskLevel =>
  score >= 85 ? "critical" : score >= 65 ? "high" : score >= 30 ? "medium" : "low";

export const actionFor = (score: number, t: Thresholds): RecommendedAction =>
  score >= t.block ? "block" : score >= t.review ? "review" : "allow";

const confidenceLabel = (c: number): Confidence => (c >= 0.75 ? "high" : c >= 0.45 ? "medium" : "low");

const noisyOr = (ps: readonly number[]): number => 1 - ps.reduce((acc, p) => acc * (1 - p), 1);
const round2 = (x: number): number => Math.round(x * 100) / 100;
const DAY_MS = 86_400_000;

export interface ScoreContext {
  readonly now: Date;
  readonly coverage: Coverage;
  /** Families a full check of this entity type consults (for "how much did we look at"). */
  readonly expectedFamilies: readonly Family[];
  readonly thresholds?: Thresholds;
  readonly ruleset?: Ruleset;
}

/**
 * Turns findings into the scored verdict fields. Deterministic: the same findings, ruleset and
 * `now` always give the same result.
 */
export function scoreFindings(findings: readonly Finding[], ctx: ScoreContext): Score {
  const rs = ctx.ruleset ?? RULESET;
  const thresholds = ctx.thresholds ?? rs.thresholds;
  const nowIso = ctx.now.toISOString();
  const allowlisted = findings.some((f) => f.code === "intel.allowlisted" || f.code === "social.official_handle");
  const blocklisted = !allowlisted && findings.some((f) => f.code.startsWith("intel.blocklisted"));

  // Award points: rule weight × strength; nothing when an allowlist overrides.
  const scored = findings.map((f) => {
    const rule = rs.rules[f.code];
    const raw = rule ? rule.points * clamp01(f.strength ?? 1) : 0;
    const points = allowlisted && !f.code.startsWith("intel.allow") ? 0 : Math.round(raw);
    return { f, rule, points };
  });

  // Combine: damped noisy-OR within a family (capped), plain noisy-OR across families.
  const byFamily = new Map<Family, number[]>();
  for (const { f, points } of scored) {
    if (points <= 0) continue;
    const list = byFamily.get(f.family) ?? [];
    list.push(points / 100);
    byFamily.set(f.family, list);
  }
  const familyScores = new Map<Family, number>();
  for (const [family, ps] of byFamily) {
    ps.sort((a, b) => b - a);
    const combined = noisyOr(ps.map((p, i) => (i === 0 ? p : p * rs.withinFamilyDamping)));
    familyScores.set(family, Math.min(combined, (rs.familyCaps[family] ?? 100) / 100));
  }
  let score = Math.round(100 * noisyOr([...familyScores.values()]));
  if (allowlisted) score = Math.min(score, rs.allowlistedCeiling);

  // Confidence: agreement between independent families, strength and freshness of the sources,
  // and how much of what a full check looks at was actually looked at.
  const agreeing = [...familyScores.values()].filter((s) => s >= 0.2).length;
  const strongest = Math.max(0, ...scored.map((s) => s.points));
  const evaluated = new Set(ctx.coverage.evaluated);
  const coverageRatio = ctx.expectedFamilies.length === 0 ? 1 : ctx.expectedFamilies.filter((f) => evaluated.has(f)).length / ctx.expectedFamilies.length;
  let confidence: number;
  if (allowlisted) {
    confidence = 0.9;
  } else if (blocklisted) {
    const newest = Math.max(...findings.filter((f) => f.code.startsWith("intel.blocklisted")).map((f) => (f.observed_at ? Date.parse(f.observed_at) : ctx.now.getTime())));
    const ageDays = (ctx.now.getTime() - newest) / DAY_MS;
    confidence = Math.min(0.98, 0.88 + 0.03 * (agreeing - 1)) * (ageDays > 365 ? 0.85 : 1);
  } else if (score >= thresholds.review) {
    confidence = Math.min(0.95, 0.45 + 0.15 * (agreeing - 1) + (strongest >= 70 ? 0.2 : 0));
  } else if (score >= 30) {
    confidence = Math.min(0.7, 0.35 + 0.1 * agreeing);
  } else {
    // Nothing (much) found. Absence of evidence is weak evidence: never more than "low".
    confidence = 0.15 + 0.25 * coverageRatio;
  }
  confidence = Math.max(0.05, confidence - 0.1 * ctx.coverage.unavailable.length);

  const signals: Signal[] = scored
    .map(({ f, rule, points }) => ({
      code: f.code,
      category: rule?.category ?? "coverage",
      severity: rule?.severity ?? severityFor(points),
      points,
      message: f.message,
      source: f.source,
      evidence: f.evidence,
      observed_at: f.observed_at ?? nowIso,
      expires_at: f.expires_at ?? null,
    }))
    .sort((a, b) => b.points - a.points || a.code.localeCompare(b.code));

  return {
    risk_score: score,
    risk_level: riskLevelFor(score),
    recommended_action: actionFor(score, thresholds),
    confidence: confidenceLabel(confidence),
    confidence_score: round2(confidence),
    signals,
  };
}

function clamp01(x: number): number {
  return x < 0 ? 0 : x > 1 ? 1 : Number.isFinite(x) ? x : 0;
}
