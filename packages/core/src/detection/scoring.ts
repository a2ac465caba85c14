import { collationCompare } from "./collation.js";
import { RULESET, severityFor, type Rule, type Ruleset } from "./ruleset.js";
import type { Confidence, Coverage, Family, Finding, RecommendedAction, RiskLevel, Signal, Thresholds } from "./types.js";

export interface Score {
  readonly risk_score: number;
  readonly risk_level: RiskLevel;
  readonly recommended_action: RecommendedAction;
  readonly confidence: Confidence;
  readonly confidence_score: number;
  /** The verdict's reasons: every signal except those an allowlist overrode (zeroed). */
  readonly signals: readonly Signal[];
  /** Every signal, the overridden ones included at 0 points: for the audit record. */
  readonly all_signals: readonly Signal[];
}

export const riskLevelFor = (score: number): RiskLevel =>
  score >= 85 ? "critical" : score >= 65 ? "high" : score >= 30 ? "medium" : "low";

export const actionFor = (score: number, t: Thresholds): RecommendedAction =>
  score >= t.block ? "block" : score >= t.review ? "review" : "allow";

const confidenceLabel = (c: number): Confidence => (c >= 0.75 ? "high" : c >= 0.45 ? "medium" : "low");

/** Findings saying that only an address could be judged (a user's page on a platform, a redirect to no readable address). */
const PATH_ONLY_CODES: ReadonlySet<string> = new Set(["url.user_content", "url.redirect_unreadable"]);
/** The most confidence a verdict judged on an address alone gets: "medium". */
const PATH_ONLY_CONFIDENCE = 0.6;

const round2 = (x: number): number => Math.round(x * 100) / 100;
const DAY_MS = 86_400_000;

export interface ScoreContext {
  readonly now: Date;
  readonly coverage: Coverage;
  /** Families a full check of this entity type consults (for "how much did we look at"). */
  readonly expectedFamilies: readonly Family[];
  readonly thresholds?: Thresholds;
  readonly ruleset?: Ruleset;
  /** `now` as ISO 8601, when the caller has it already. */
  readonly nowIso?: string;
}

let lastRules: Ruleset["rules"] | null = null;
let lastByCode: ReadonlyMap<string, Rule> = new Map();

/**
 * A ruleset's rules as a Map, made once per ruleset (the last one asked for is kept): looking a
 * code up in an object of some eighty keys costs two to three times a Map's lookup, and a check
 * looks up every finding's code, twice. The same answers: finding codes always hold a dot, so
 * none names a property an object inherits.
 */
export function rulesByCode(rs: Ruleset): ReadonlyMap<string, Rule> {
  if (rs.rules !== lastRules) {
    lastByCode = new Map(Object.entries(rs.rules));
    lastRules = rs.rules;
  }
  return lastByCode;
}

/** Signal order: most points first, then by code, in `localeCompare`'s order (collation.ts). */
const byCode = collationCompare;
const bySignalOrder = (a: Signal, b: Signal): number => b.points - a.points || byCode(a.code, b.code);

/**
 * Turns findings into the scored verdict fields. Deterministic: the same findings, ruleset and
 * `now` always give the same result. (Written as plain loops: it runs on every check.)
 */
export function scoreFindings(findings: readonly Finding[], ctx: ScoreContext): Score {
  const rs = ctx.ruleset ?? RULESET;
  const thresholds = ctx.thresholds ?? rs.thresholds;
  const nowIso = ctx.nowIso ?? ctx.now.toISOString();
  let allowlisted = false;
  let anyBlocklisted = false;
  let pathOnly = false;
  let popularSite = false;
  for (const f of findings) {
    if (f.code === "intel.allowlisted" || f.code === "social.official_handle") allowlisted = true;
    else if (f.code.startsWith("intel.blocklisted")) anyBlocklisted = true;
    // (Only a `url.` code can be one: most findings need no look-up.)
    else if (f.code.startsWith("url.") && PATH_ONLY_CODES.has(f.code)) pathOnly = true;
    else if (f.code === "domain.popular_site" || f.code === "domain.hosting_platform") popularSite = true;
  }
  const blocklisted = !allowlisted && anyBlocklisted;
  // A popular site's own name is not evidence against it (decision 0051); a block-list entry still counts.
  const popular = popularSite && !anyBlocklisted && rs.popularCeiling !== undefined;

  // Award points: rule weight × strength; nothing when an allowlist overrides.
  // Combine: damped noisy-OR within a family (capped), plain noisy-OR across families.
  const points: number[] = new Array<number>(findings.length);
  // Families with points, in the order first seen (the order the noisy-OR multiplies them in).
  const families: string[] = [];
  let strongest = 0;
  // The learned model's score: compared with the other families' combination, not added to it.
  let modelPoints = 0;
  let modelSeen = false;
  for (const f of findings) if (f.family === "model") modelSeen = true;
  const nameByModel = modelSeen && rs.modelCombination === "name";
  const rules = rulesByCode(rs);
  for (let i = 0; i < findings.length; i++) {
    const f = findings[i] as Finding;
    const rule = rules.get(f.code);
    ruleOf[i] = rule;
    const raw = rule ? rule.points * clamp01(f.strength ?? 1) : 0;
    const p = (allowlisted && !f.code.startsWith("intel.allow")) || (popular && isNameFinding(f)) ? 0 : Math.round(raw);
    points[i] = p;
    if (p > strongest) strongest = p;
    // With the model standing for the name evidence, the name findings it reads (domain.*) are
    // kept apart from the rest of their family (a URL's user-info brand is no name feature).
    const bucket = nameByModel && (f.family === "impersonation" || f.family === "lexical") && f.code.startsWith("domain.") ? (f.family === "impersonation" ? NAME_BUCKET.impersonation : NAME_BUCKET.lexical) : f.family;
    bucketOf[i] = bucket;
    if (f.family === "model") {
      if (p > modelPoints) modelPoints = p;
    } else if (p > 0 && !families.includes(bucket)) families.push(bucket);
  }
  let clean = 1; // probability that no family is right
  let agreeing = 0;
  // With the model standing for the name evidence: the rules' impersonation score, kept as a floor.
  let impersonation = 0;
  let lexical = 0;
  for (const family of families) {
    // The family's points in finding order, strongest first (in a scratch array: no map of lists
    // per check, and its first `count` entries used rather than its length reset).
    const ps = familyPoints;
    let count = 0;
    for (let i = 0; i < findings.length; i++) if ((points[i] as number) > 0 && bucketOf[i] === family) ps[count++] = (points[i] as number) / 100;
    sortDescending(ps, count);
    let none = 1;
    for (let i = 0; i < count; i++) none *= 1 - (i === 0 ? (ps[i] as number) : (ps[i] as number) * rs.withinFamilyDamping);
    const cap = rs.familyCaps[(family === NAME_BUCKET.impersonation ? "impersonation" : family === NAME_BUCKET.lexical ? "lexical" : family) as Family];
    const familyScore = Math.min(1 - none, (cap ?? 100) / 100);
    if (familyScore >= 0.2) agreeing++;
    if (family === "name:impersonation") impersonation = familyScore;
    else if (family === "name:lexical") lexical = familyScore;
    else clean *= 1 - familyScore;
  }
  // A brand look-alike in the name keeps the rules' own reading of it (impersonation with the
  // lexical signs beside it) where the model finds the name at least worth a look.
  const rulesName = impersonation > 0 && modelPoints >= FLOOR_MODEL_MIN ? 1 - (1 - impersonation) * (1 - lexical) : 0;
  let score = nameByModel ? Math.round(100 * (1 - clean * Math.min(1 - modelPoints / 100, 1 - rulesName))) : Math.round(100 * (1 - clean));
  if (!nameByModel && modelPoints > score) score = modelPoints;
  if (allowlisted) score = Math.min(score, rs.allowlistedCeiling);
  if (popular) score = Math.min(score, rs.popularCeiling as number);

  // Confidence: agreement between independent families, strength and freshness of the sources,
  // and how much of what a full check looks at was actually looked at.
  let confidence: number;
  if (allowlisted) {
    confidence = 0.9;
  } else if (popular) {
    // Known: one of the web's most-linked sites.
    confidence = 0.8;
  } else if (blocklisted) {
    let newest = Number.NEGATIVE_INFINITY;
    for (const f of findings) if (f.code.startsWith("intel.blocklisted")) newest = Math.max(newest, f.observed_at ? Date.parse(f.observed_at) : ctx.now.getTime());
    const ageDays = (ctx.now.getTime() - newest) / DAY_MS;
    confidence = Math.min(0.98, 0.88 + 0.03 * (agreeing - 1)) * (ageDays > 365 ? 0.85 : 1);
  } else if (score >= 65) {
    // Confidence follows the evidence, not the key's action thresholds: fixed at the bands.
    confidence = Math.min(0.95, 0.45 + 0.15 * (agreeing - 1) + (strongest >= 70 ? 0.2 : 0));
  } else if (score >= 30) {
    confidence = Math.min(0.7, 0.35 + 0.1 * agreeing);
  } else {
    // Nothing (much) found. Absence of evidence is weak evidence: never more than "low".
    const expected = ctx.expectedFamilies;
    let covered = 0;
    for (const family of expected) if (ctx.coverage.evaluated.includes(family)) covered++;
    confidence = 0.15 + 0.25 * (expected.length === 0 ? 1 : covered / expected.length);
  }
  // A user's page on a platform was judged on its address alone (nothing vouches for it either way).
  if (pathOnly && !allowlisted && !blocklisted) confidence = Math.min(confidence, PATH_ONLY_CONFIDENCE);
  confidence = Math.max(0.05, confidence - 0.1 * ctx.coverage.unavailable.length);

  const signals: Signal[] = new Array<Signal>(findings.length);
  for (let i = 0; i < findings.length; i++) {
    const f = findings[i] as Finding;
    const rule = ruleOf[i];
    const p = points[i] as number;
    signals[i] = {
      code: f.code,
      category: rule?.category ?? "coverage",
      severity: rule?.severity ?? severityFor(p),
      points: p,
      message: f.message,
      source: f.source,
      evidence: f.evidence,
      observed_at: f.observed_at ?? nowIso,
      expires_at: f.expires_at ?? null,
    };
  }
  if (signals.length > 1) insertionSort(signals, bySignalOrder);
  // An allowlisted verdict does not give the signals it overrode as reasons: "allow, because
  // it looks like paypal.com (0 points)" misleads. They stay in the audit record.
  let reasons: Signal[] = signals;
  if (allowlisted || popular) {
    reasons = [];
    for (const sig of signals) if (!overridden(sig, rs)) reasons.push(sig);
  }

  return {
    risk_score: score,
    risk_level: riskLevelFor(score),
    recommended_action: actionFor(score, thresholds),
    confidence: confidenceLabel(confidence),
    confidence_score: round2(confidence),
    signals: reasons,
    all_signals: signals,
  };
}

/** A finding about the name itself: the model's, and the look-alike and lexical readings of the host name. */
const isNameFinding = (f: Finding): boolean => f.family === "model" || (f.code.startsWith("domain.") && (f.family === "impersonation" || f.family === "lexical"));

/** A signal that would have scored but was zeroed by an allowlist (or, for a popular site, its name evidence). */
const overridden = (s: Signal, rs: Ruleset): boolean => s.points === 0 && !s.code.startsWith("intel.allow") && (rs.rules[s.code]?.points ?? 0) > 0;

/** The least model score (`medium`) at which a brand look-alike in the name keeps the rules' reading as a floor (chosen on the valid months, decision 0023). */
const FLOOR_MODEL_MIN = 30;
/** The buckets of the name findings the model reads, apart from the rest of their family. */
const NAME_BUCKET = { impersonation: "name:impersonation", lexical: "name:lexical" } as const;
/** Scratch: the family, or name bucket, each finding is combined in. */
const bucketOf: string[] = [];

/** Sorts the first `count` numbers of `xs` from the largest, as `insertionSort(xs, (a, b) => b - a)` would. */
function sortDescending(xs: number[], count: number): void {
  for (let i = 1; i < count; i++) {
    const x = xs[i] as number;
    let j = i - 1;
    while (j >= 0 && x - (xs[j] as number) > 0) {
      xs[j + 1] = xs[j] as number;
      j--;
    }
    xs[j + 1] = x;
  }
}
/** Scratch: the rule of each finding, looked up once per call (the ruleset is a large keyed object). */
const ruleOf: (Ruleset["rules"][string] | undefined)[] = [];
/** Scratch for one family's points at a time (scoring is synchronous: never shared between calls). */
const familyPoints: number[] = [];

/**
 * Sorts in place, stably, as `Array.prototype.sort` does: the same order for the same
 * comparator. A verdict has a handful of signals, where this is several times quicker than the
 * built-in sort and its setup.
 */
export function insertionSort<T>(xs: T[], compare: (a: T, b: T) => number): void {
  for (let i = 1; i < xs.length; i++) {
    const x = xs[i] as T;
    let j = i - 1;
    while (j >= 0 && compare(xs[j] as T, x) > 0) {
      xs[j + 1] = xs[j] as T;
      j--;
    }
    xs[j + 1] = x;
  }
}

function clamp01(x: number): number {
  return x < 0 ? 0 : x > 1 ? 1 : Number.isFinite(x) ? x : 0;
}
