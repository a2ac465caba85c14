/**
 * Standard Webhooks' schedule: the first attempt at once, then 5 s, 5 min, 30 min, 2 h, 5 h,
 * 10 h, 14 h, 20 h and 24 h after the previous failure (about 75.5 h in all, 10 attempts).
 */
export const RETRY_SCHEDULE_MS: readonly number[] = [
  0, 5_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 5 * 3_600_000, 10 * 3_600_000, 14 * 3_600_000, 20 * 3_600_000, 24 * 3_600_000,
];
export const MAX_ATTEMPTS = RETRY_SCHEDULE_MS.length;
/** Each delay is stretched by up to this fraction at random, so retries of many messages spread out. */
export const RETRY_JITTER = 0.1;

/**
 * When to try again after failed attempt number `attempt` (1-based), or null when that was the
 * last. `random` is in [0, 1); a `Retry-After` longer than the schedule's delay is honoured.
 */
export function nextAttemptAt(attempt: number, failedAt: Date, random: number, retryAfterMs: number | null = null): Date | null {
  const delay = RETRY_SCHEDULE_MS[attempt];
  if (delay === undefined) return null;
  const jittered = delay + Math.floor(delay * RETRY_JITTER * random);
  return new Date(failedAt.getTime() + Math.max(jittered, retryAfterMs ?? 0));
}
