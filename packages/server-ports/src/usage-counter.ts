export type UsageWindow = "minute" | "month";

export interface UsageHit {
  /** False when `cost` would take the count over the limit; the count is then left unchanged. */
  readonly allowed: boolean;
  /** The count in this window after the hit (unchanged when refused). */
  readonly count: number;
  readonly remaining: number;
}

/**
 * Fixed-window usage counters (rate limits, monthly quotas), correct across processes: a hit
 * is one atomic check-and-add.
 */
export interface UsageCounter {
  /** Adds `cost` to the window's count unless that would exceed `limit`. */
  hit(key: string, window: UsageWindow, windowStart: Date, cost: number, limit: number): Promise<UsageHit>;
  /** Takes back `cost` from the window's count (never below zero): a charge for work that failed. */
  refund(key: string, window: UsageWindow, windowStart: Date, cost: number): Promise<void>;
  /** Deletes windows of this kind that started before `before`; returns how many. */
  purgeBefore(window: UsageWindow, before: Date): Promise<number>;
}
