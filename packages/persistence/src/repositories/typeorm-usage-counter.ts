import type { DataSource } from "typeorm";
import type { UsageCounter, UsageHit, UsageWindow } from "@svc/core";
import { affectedOf } from "./sql.js";

export class TypeOrmUsageCounter implements UsageCounter {
  constructor(private readonly ds: DataSource) {}

  async hit(key: string, window: UsageWindow, windowStart: Date, cost: number, limit: number): Promise<UsageHit> {
    checkCost(cost, limit);
    // Check and add in one statement: the row lock taken by ON CONFLICT makes concurrent hits
    // (from any replica) see each other's counts, and the WHERE refuses a hit that would go
    // over the limit without adding anything. A first hit costing more than the limit inserts nothing.
    const rows = (await this.ds.manager.query(
      `INSERT INTO usage_counters (key, window_kind, window_start, "count")
       SELECT $1::text, $2::text, $3::timestamptz, $4::int WHERE $4::int <= $5::int
       ON CONFLICT (key, window_kind, window_start) DO UPDATE
          SET "count" = usage_counters."count" + EXCLUDED."count"
        WHERE usage_counters."count" + EXCLUDED."count" <= $5::int
       RETURNING "count"`,
      [key, window, windowStart, cost, limit],
    )) as { count: number }[];
    const done = rows[0];
    if (done) return { allowed: true, count: done.count, remaining: Math.max(0, limit - done.count) };
    const [current] = (await this.ds.manager.query(
      `SELECT "count" FROM usage_counters WHERE key = $1 AND window_kind = $2 AND window_start = $3`,
      [key, window, windowStart],
    )) as { count: number }[];
    const count = current?.count ?? 0;
    return { allowed: false, count, remaining: Math.max(0, limit - count) };
  }

  async purgeBefore(window: UsageWindow, before: Date): Promise<number> {
    return affectedOf(await this.ds.manager.query(`DELETE FROM usage_counters WHERE window_kind = $1 AND window_start < $2`, [window, before]));
  }
}

function checkCost(cost: number, limit: number): void {
  if (!Number.isInteger(cost) || cost < 0) throw new RangeError(`usage cost must be a non-negative integer, got ${cost}`);
  if (!Number.isInteger(limit) || limit < 0) throw new RangeError(`usage limit must be a non-negative integer, got ${limit}`);
}
