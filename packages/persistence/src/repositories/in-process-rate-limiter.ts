import type { RateLimiter, RateState } from "@svc/server-ports";
import { checkCost, SLOT_MS, slotOf, windowState } from "./typeorm-rate-limiter.js";

/** Keys held before a take sweeps out the ones whose windows are empty. */
const SWEEP_ABOVE = 10_000;

/**
 * The sliding-window rate limit of `TypeOrmRateLimiter` (same slots, same answers), kept in this
 * process's memory: for the embedded database, which one process holds (its data directory is
 * locked), so no other process takes from the same windows (decision 0097). A take is a few map
 * operations instead of a statement in PGlite. The windows are not kept across a restart: a key
 * may take up to its limit again right after one.
 */
export class InProcessRateLimiter implements RateLimiter {
  private readonly span: number;
  /** Per key, units taken per one-second slot still in (or recently in) the window. */
  private readonly windows = new Map<string, Map<number, number>>();

  constructor(windowMs = 60_000) {
    if (!Number.isInteger(windowMs / SLOT_MS) || windowMs <= 0) throw new RangeError(`the window must be a whole number of seconds, got ${windowMs} ms`);
    this.span = windowMs / SLOT_MS;
  }

  async take(key: string, now: Date, cost: number, limit: number): Promise<RateState> {
    checkCost(cost, limit);
    const slots = this.live(key, now);
    let used = 0;
    for (const n of slots?.values() ?? []) used += n;
    if (used + cost > limit) return windowState(false, entries(slots), now, this.span, cost, limit);
    if (cost > 0) {
      if (this.windows.size >= SWEEP_ABOVE) this.sweep(now);
      const w = slots ?? new Map<number, number>();
      const s = slotOf(now);
      w.set(s, (w.get(s) ?? 0) + cost);
      this.windows.set(key, w);
      return windowState(true, entries(w), now, this.span, 0, limit);
    }
    return windowState(true, entries(slots), now, this.span, 0, limit);
  }

  async peek(key: string, now: Date, limit: number): Promise<RateState> {
    checkCost(0, limit);
    return windowState(true, entries(this.windows.get(key)), now, this.span, 0, limit);
  }

  async refund(key: string, takenAt: Date, cost: number): Promise<void> {
    checkCost(cost, 0);
    const w = this.windows.get(key);
    const s = slotOf(takenAt);
    const n = w?.get(s);
    if (w && n !== undefined) w.set(s, Math.max(0, n - cost));
  }

  /** The key's slots with those that have left the window at `now` dropped. */
  private live(key: string, now: Date): Map<number, number> | undefined {
    const w = this.windows.get(key);
    if (!w) return undefined;
    const first = slotOf(now) - this.span;
    for (const s of w.keys()) if (s < first) w.delete(s);
    return w;
  }

  private sweep(now: Date): void {
    for (const key of [...this.windows.keys()]) if ((this.live(key, now)?.size ?? 0) === 0) this.windows.delete(key);
  }
}

const entries = (w: ReadonlyMap<number, number> | undefined): { s: number; n: number }[] => [...(w ?? [])].map(([s, n]) => ({ s, n }));
