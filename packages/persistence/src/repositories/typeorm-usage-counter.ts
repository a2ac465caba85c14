import type { DataSource } from "typeorm";
import { rawQuery } from "./raw-sql.js";
import type { UsageCounter, UsageHit, UsageWindow } from "@svc/server-ports";
import { affectedOf, ASYNC_COMMIT } from "./sql.js";
import { summable } from "./summed-hits.js";

export class TypeOrmUsageCounter implements UsageCounter {
  /** The hot-path statement (coalesced hits of concurrent requests) as a prepared statement on a raw session (decision 0044). */
  private readonly raw: ReturnType<typeof rawQuery>;

  constructor(private readonly ds: DataSource) {
    this.raw = rawQuery(ds);
  }

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

  /**
   * Many hits, with the same answers as `hit` called for each in order. The hits on one counter
   * (one limit) are added up and tried as one: nearly always they all fit, and the counter's row
   * takes them in one statement and one lock instead of one round each (one integration sending
   * everything through one key is the common case). Only a counter whose sum does not fit while
   * some of its hits would is taken again hit by hit, in call order.
   */
  async hitMany(hits: readonly UsageRequest[]): Promise<UsageHit[]> {
    for (const h of hits) checkCost(h.cost, h.limit);
    const out: (UsageHit | undefined)[] = hits.map(() => undefined);
    const { groups, apart } = summable(hits, counterOf, (a, b) => a.limit === b.limit);
    const results = await this.inRounds(groups.map((g) => g.sum));
    groups.forEach(({ idx, sum: hit }, j) => {
      const r = results[j] as UsageHit;
      if (r.allowed) {
        // As if taken one by one: the count before the group, plus each hit in turn.
        let count = r.count - hit.cost;
        for (const i of idx) {
          count += (hits[i] as UsageRequest).cost;
          out[i] = { allowed: true, count, remaining: Math.max(0, hit.limit - count) };
        }
      } else if (idx.length === 1 || idx.every((i) => r.count + (hits[i] as UsageRequest).cost > hit.limit)) {
        // None of them fits what is left (a key at its limit): each is refused as it would be alone.
        for (const i of idx) out[i] = { ...r };
      } else apart.push(...idx);
    });
    if (apart.length > 0) {
      apart.sort((a, b) => a - b);
      const one = await this.inRounds(apart.map((i) => hits[i] as UsageRequest));
      apart.forEach((i, j) => {
        out[i] = one[j];
      });
    }
    return out as UsageHit[];
  }

  /**
   * Hits in as few statements as possible: one multi-row upsert per round, where a round holds
   * at most one hit per counter (a second hit on the same counter goes to the next round, so
   * hits on one counter apply in call order). Rows are locked in key order, so concurrent
   * batches from any process cannot deadlock. One result per hit, in order; same semantics as `hit`.
   */
  private async inRounds(hits: readonly UsageRequest[]): Promise<UsageHit[]> {
    const out: (UsageHit | undefined)[] = hits.map(() => undefined);
    const rounds: number[][] = [];
    const seen = new Map<string, number>();
    hits.forEach((h, i) => {
      const k = counterOf(h);
      const round = seen.get(k) ?? 0;
      seen.set(k, round + 1);
      (rounds[round] ??= []).push(i);
    });
    for (const round of rounds) {
      const idx = [...round].sort((a, b) => cmpHit(hits[a] as UsageRequest, hits[b] as UsageRequest));
      const rows = (await this.raw("svc_usage_hit_many",
        `WITH ${ASYNC_COMMIT}, input AS (
           SELECT * FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::int[], $5::int[]) AS t(key, window_kind, window_start, cost, lim)
         ), done AS (
           INSERT INTO usage_counters (key, window_kind, window_start, "count")
           SELECT key, window_kind, window_start, cost FROM input WHERE cost <= lim ORDER BY key, window_kind, window_start
           ON CONFLICT (key, window_kind, window_start) DO UPDATE
              SET "count" = usage_counters."count" + EXCLUDED."count"
            WHERE usage_counters."count" + EXCLUDED."count" <= (
                    SELECT i.lim FROM input i
                     WHERE i.key = EXCLUDED.key AND i.window_kind = EXCLUDED.window_kind AND i.window_start = EXCLUDED.window_start)
           RETURNING key, window_kind, window_start, "count"
         )
         SELECT i.key, i.window_kind, i.window_start, d."count" AS done, c."count" AS current
           FROM input i
           CROSS JOIN async_commit
           LEFT JOIN done d USING (key, window_kind, window_start)
           LEFT JOIN usage_counters c ON d.key IS NULL AND c.key = i.key AND c.window_kind = i.window_kind AND c.window_start = i.window_start`,
        [
          idx.map((i) => (hits[i] as UsageRequest).key), idx.map((i) => (hits[i] as UsageRequest).window),
          idx.map((i) => (hits[i] as UsageRequest).windowStart.toISOString()), idx.map((i) => (hits[i] as UsageRequest).cost),
          idx.map((i) => (hits[i] as UsageRequest).limit),
        ],
      )) as { key: string; window_kind: string; window_start: Date | string; done: number | null; current: number | null }[];
      const byKey = new Map(rows.map((r) => [counterOf({ key: r.key, window: r.window_kind as UsageWindow, windowStart: new Date(r.window_start) }), r]));
      for (const i of idx) {
        const h = hits[i] as UsageRequest;
        const r = byKey.get(counterOf(h));
        const count = r?.done ?? r?.current ?? 0;
        out[i] = r?.done != null
          ? { allowed: true, count, remaining: Math.max(0, h.limit - count) }
          : { allowed: false, count, remaining: Math.max(0, h.limit - count) };
      }
    }
    return out as UsageHit[];
  }

  async refund(key: string, window: UsageWindow, windowStart: Date, cost: number): Promise<void> {
    checkCost(cost, 0);
    if (cost === 0) return;
    await this.ds.manager.query(
      `UPDATE usage_counters SET "count" = GREATEST(0, "count" - $4::int) WHERE key = $1 AND window_kind = $2 AND window_start = $3`,
      [key, window, windowStart, cost],
    );
  }

  async purgeBefore(window: UsageWindow, before: Date): Promise<number> {
    return affectedOf(await this.ds.manager.query(`DELETE FROM usage_counters WHERE window_kind = $1 AND window_start < $2`, [window, before]));
  }
}

/** One `hit`'s arguments. */
export interface UsageRequest {
  readonly key: string;
  readonly window: UsageWindow;
  readonly windowStart: Date;
  readonly cost: number;
  readonly limit: number;
}

const counterOf = (h: Pick<UsageRequest, "key" | "window" | "windowStart">): string => `${h.key}\u0000${h.window}\u0000${h.windowStart.getTime()}`;

const cmpHit = (a: UsageRequest, b: UsageRequest): number =>
  a.key < b.key ? -1 : a.key > b.key ? 1 : a.window < b.window ? -1 : a.window > b.window ? 1 : a.windowStart.getTime() - b.windowStart.getTime();

function checkCost(cost: number, limit: number): void {
  if (!Number.isInteger(cost) || cost < 0) throw new RangeError(`usage cost must be a non-negative integer, got ${cost}`);
  if (!Number.isInteger(limit) || limit < 0) throw new RangeError(`usage limit must be a non-negative integer, got ${limit}`);
}
