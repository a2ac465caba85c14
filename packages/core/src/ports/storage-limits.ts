import { ENTITY_TYPES, type EntityType } from "../entities/types.js";

/**
 * Limits and constants the storage ports promise, shared by every implementation so that the
 * in-memory fakes and the database adapters answer alike.
 */
export const HISTORY_LIMIT = { default: 50, max: 100 } as const;
export const EXPORT_BATCH = { default: 500, max: 5_000 } as const;
export const WALK_DEPTH = { default: 2, max: 4 } as const;
export const WALK_NODES = { default: 100, max: 500 } as const;
/** Edges returned by one walk at most (dense neighbourhoods); more sets `truncated`. */
export const WALK_MAX_EDGES = 2_000;
/** Risk score from which a graph node counts as bad for `badNeighbours` (level high). */
export const BAD_NEIGHBOUR_SCORE = 65;
/** Paths `badNeighbours` returns at most. */
export const BAD_NEIGHBOUR_PATHS = 10;
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;
/**
 * How long a request's claim on an Idempotency-Key lasts without renewal (it renews every third
 * of this while it runs): after a crash, the key is free for the retry this long after.
 */
export const IDEMPOTENCY_LEASE_MS = 30_000;
/** A report's weight halves every 30 days. */
export const REPORT_HALF_LIFE_DAYS = 30;
/** Weight of a report the operator confirmed (before decay with age). */
export const CONFIRMED_REPORT_TRUST = 1;
/**
 * How a reporter earns weight for reports not yet moderated (docs/decisions/0015): only from
 * the operator's decisions on the reporter's earlier reports. A fresh reporter has none, so
 * any number of fresh accounts move nothing until the operator confirms a report.
 */
export const EARNED_TRUST = {
  /** Confirmed reports a reporter needs before unmoderated ones count at all. */
  minConfirmed: 3,
  /** A rejection costs as much as this many confirmations. */
  rejectionCost: 2,
  /** Pseudo-count that keeps a short record modest. */
  prior: 5,
  /** Earned trust never reaches a confirmation's weight. */
  max: 0.6,
} as const;

/**
 * Trust earned by a reporter with this record of moderated reports, 0..EARNED_TRUST.max.
 * E.g. 3 confirmed, 0 rejected → 0.375; 10 confirmed → 0.6; 5 confirmed, 2 rejected → 0.08.
 */
export function earnedReporterTrust(confirmed: number, rejected: number): number {
  if (confirmed < EARNED_TRUST.minConfirmed) return 0;
  const t = (confirmed - EARNED_TRUST.rejectionCost * rejected) / (confirmed + rejected + EARNED_TRUST.prior);
  return Math.min(EARNED_TRUST.max, Math.max(0, t));
}
/** Reports the moderation queue returns per page. */
export const REPORT_LIST_LIMIT = { default: 50, max: 100 } as const;

/** An integer in [min, max], or the default when absent or not a number. */
export function clampInt(value: number | undefined, min: number, max: number, fallback: number): number {
  if (value === undefined || !Number.isFinite(value)) return fallback;
  return Math.min(max, Math.max(min, Math.trunc(value)));
}

/** Decayed weight of one report. A report dated in the future counts as new. */
export function reportWeight(trust: number, reportedAt: Date, now: Date): number {
  const ageDays = Math.max(0, (now.getTime() - reportedAt.getTime()) / 86_400_000);
  return trust * 0.5 ** (ageDays / REPORT_HALF_LIFE_DAYS);
}

/** `type:value` → its parts; null when the type is not one of ours. */
export function splitEntityId(id: string): { type: EntityType; value: string } | null {
  const colon = id.indexOf(":");
  if (colon <= 0) return null;
  const type = id.slice(0, colon) as EntityType;
  return ENTITY_TYPES.includes(type) && colon < id.length - 1 ? { type, value: id.slice(colon + 1) } : null;
}
