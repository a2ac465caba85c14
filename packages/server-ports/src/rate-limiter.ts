/** The state of one key's sliding window as a take (or a look) left it. */
export interface RateState {
  /** False when `cost` did not fit; nothing was then taken. */
  readonly allowed: boolean;
  /** Units counted in the window now (after the take when allowed). */
  readonly used: number;
  readonly remaining: number;
  /** Milliseconds until everything counted now has left the window (0 when nothing is counted). */
  readonly resetMs: number;
  /** Milliseconds until a take of the same cost would fit (0 when it fits now). */
  readonly retryAfterMs: number;
}

/**
 * A per-key sliding-window rate limit, correct across processes: a take is one atomic
 * check-and-add, and at most `limit` units are taken in any window-long span of time.
 */
export interface RateLimiter {
  /** Takes `cost` units at `now` unless that would put more than `limit` in the window. */
  take(key: string, now: Date, cost: number, limit: number): Promise<RateState>;
  /** The window as it stands at `now`, taking nothing. */
  peek(key: string, now: Date, limit: number): Promise<RateState>;
  /** Gives back `cost` units taken at `takenAt` (no effect once they have left the window). */
  refund(key: string, takenAt: Date, cost: number): Promise<void>;
}
