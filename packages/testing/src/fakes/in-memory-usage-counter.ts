import type { UsageCounter, UsageHit, UsageWindow } from "@svc/server-ports";

export class InMemoryUsageCounter implements UsageCounter {
  private readonly counts = new Map<string, { window: UsageWindow; start: number; count: number }>();

  async hit(key: string, window: UsageWindow, windowStart: Date, cost: number, limit: number): Promise<UsageHit> {
    if (!Number.isInteger(cost) || cost < 0) throw new RangeError(`usage cost must be a non-negative integer, got ${cost}`);
    if (!Number.isInteger(limit) || limit < 0) throw new RangeError(`usage limit must be a non-negative integer, got ${limit}`);
    const id = `${key}\u0000${window}\u0000${windowStart.getTime()}`;
    const count = this.counts.get(id)?.count ?? 0;
    if (count + cost > limit) return { allowed: false, count, remaining: Math.max(0, limit - count) };
    this.counts.set(id, { window, start: windowStart.getTime(), count: count + cost });
    return { allowed: true, count: count + cost, remaining: limit - count - cost };
  }

  async refund(key: string, window: UsageWindow, windowStart: Date, cost: number): Promise<void> {
    if (!Number.isInteger(cost) || cost < 0) throw new RangeError(`usage refund must be a non-negative integer, got ${cost}`);
    const c = this.counts.get(`${key}\u0000${window}\u0000${windowStart.getTime()}`);
    if (c) c.count = Math.max(0, c.count - cost);
  }

  async purgeBefore(window: UsageWindow, before: Date): Promise<number> {
    let n = 0;
    for (const [id, c] of this.counts) {
      if (c.window === window && c.start < before.getTime()) {
        this.counts.delete(id);
        n++;
      }
    }
    return n;
  }
}
