// Detection quality metrics over labelled, scored examples. Pure functions, no I/O.

export interface Scored {
  /** Risk score 0..100. */
  readonly score: number;
  readonly malicious: boolean;
}

export interface Confusion {
  readonly threshold: number;
  readonly tp: number;
  readonly fp: number;
  readonly tn: number;
  readonly fn: number;
  /** tp / (tp + fp); null when nothing was flagged. */
  readonly precision: number | null;
  /** tp / (tp + fn); null when there are no malicious examples. */
  readonly recall: number | null;
  /** fp / (fp + tn); null when there are no legitimate examples. */
  readonly fpr: number | null;
}

const ratio = (a: number, b: number): number | null => (b === 0 ? null : a / b);

/** Flagged means score ≥ threshold (30: medium or worse; 65: high or worse). */
export function confusionAt(xs: readonly Scored[], threshold: number): Confusion {
  let tp = 0;
  let fp = 0;
  let tn = 0;
  let fn = 0;
  for (const x of xs) {
    const flagged = x.score >= threshold;
    if (x.malicious) {
      if (flagged) tp++;
      else fn++;
    } else if (flagged) fp++;
    else tn++;
  }
  return { threshold, tp, fp, tn, fn, precision: ratio(tp, tp + fp), recall: ratio(tp, tp + fn), fpr: ratio(fp, fp + tn) };
}

/**
 * ROC AUC by ranks (Mann–Whitney U): the probability that a random malicious example scores
 * higher than a random legitimate one, ties counting one half. Null when a class is empty.
 */
export function rocAuc(xs: readonly Scored[]): number | null {
  const nPos = xs.filter((x) => x.malicious).length;
  const nNeg = xs.length - nPos;
  if (nPos === 0 || nNeg === 0) return null;
  const sorted = [...xs].sort((a, b) => a.score - b.score);
  let rankSumPos = 0;
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j < sorted.length && (sorted[j] as Scored).score === (sorted[i] as Scored).score) j++;
    // Ranks i+1 … j share their average.
    const avgRank = (i + 1 + j) / 2;
    for (let k = i; k < j; k++) if ((sorted[k] as Scored).malicious) rankSumPos += avgRank;
    i = j;
  }
  return (rankSumPos - (nPos * (nPos + 1)) / 2) / (nPos * nNeg);
}

export interface CalibrationBin {
  /** Inclusive score range. */
  readonly lo: number;
  readonly hi: number;
  readonly count: number;
  readonly malicious: number;
  /** Fraction of the bin that is malicious; null for an empty bin. */
  readonly fraction: number | null;
  /**
   * The same fraction had both classes been equally common (each example weighted by the inverse
   * of its class size), so the table does not just echo the corpus' class balance.
   */
  readonly balanced: number | null;
}

/** Bins 0–9, 10–19 … 80–89, 90–100: how often a verdict at score s is truly malicious. */
export function calibration(xs: readonly Scored[]): CalibrationBin[] {
  const bins = Array.from({ length: 10 }, (_, i) => ({ lo: i * 10, hi: i === 9 ? 100 : i * 10 + 9, count: 0, malicious: 0 }));
  for (const x of xs) {
    const i = Math.min(9, Math.max(0, Math.floor(x.score / 10)));
    const bin = bins[i] as (typeof bins)[number];
    bin.count++;
    if (x.malicious) bin.malicious++;
  }
  const nPos = xs.filter((x) => x.malicious).length;
  const nNeg = xs.length - nPos;
  return bins.map((b) => {
    const pos = nPos === 0 ? 0 : b.malicious / nPos;
    const neg = nNeg === 0 ? 0 : (b.count - b.malicious) / nNeg;
    return { ...b, fraction: ratio(b.malicious, b.count), balanced: nPos === 0 || nNeg === 0 ? ratio(b.malicious, b.count) : ratio(pos, pos + neg) };
  });
}

export interface WithFamilies {
  readonly malicious: boolean;
  /** Families that fired: at least one of their findings was awarded points > 0. */
  readonly families: readonly string[];
  /** Highest points a finding of each family was awarded (families absent: 0). */
  readonly familyPoints?: Readonly<Record<string, number>>;
}

export interface FamilyStat {
  readonly family: string;
  readonly firedMalicious: number;
  readonly firedLegit: number;
  /** Share of malicious examples on which the family fired. */
  readonly tpr: number | null;
  /** Share of legitimate examples on which the family fired. */
  readonly fpr: number | null;
  /** Of the examples where it fired, the share that is malicious. */
  readonly precision: number | null;
  /** ROC AUC of the family's own points as a score (0 where it did not fire); null without `familyPoints`. */
  readonly auc: number | null;
}

/** How often each detector family fires on malicious and on legitimate examples. */
export function familyStats(rows: readonly WithFamilies[]): FamilyStat[] {
  const nPos = rows.filter((r) => r.malicious).length;
  const nNeg = rows.length - nPos;
  const fired = new Map<string, { pos: number; neg: number }>();
  for (const r of rows) {
    for (const f of new Set(r.families)) {
      const c = fired.get(f) ?? { pos: 0, neg: 0 };
      if (r.malicious) c.pos++;
      else c.neg++;
      fired.set(f, c);
    }
  }
  const aucOf = (family: string): number | null =>
    rows.every((r) => r.familyPoints) ? rocAuc(rows.map((r) => ({ score: r.familyPoints?.[family] ?? 0, malicious: r.malicious }))) : null;
  return [...fired]
    .map(([family, c]) => ({ family, firedMalicious: c.pos, firedLegit: c.neg, tpr: ratio(c.pos, nPos), fpr: ratio(c.neg, nNeg), precision: ratio(c.pos, c.pos + c.neg), auc: aucOf(family) }))
    .sort((a, b) => b.firedMalicious + b.firedLegit - (a.firedMalicious + a.firedLegit) || a.family.localeCompare(b.family));
}

/** Groups rows by a key, keeping first-seen key order. */
export function groupBy<T>(rows: readonly T[], key: (row: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const r of rows) {
    const k = key(r);
    const list = out.get(k);
    if (list) list.push(r);
    else out.set(k, [r]);
  }
  return out;
}

/** Percent with one decimal, or "–" for an undefined ratio. */
export const pct = (x: number | null, digits = 1): string => (x === null ? "–" : `${(100 * x).toFixed(digits)} %`);
