import type { DataSource } from "typeorm";
import { rawQuery } from "./raw-sql.js";
import { ASYNC_COMMIT } from "./sql.js";
import { summable } from "./summed-hits.js";
import type { RateLimiter, RateState } from "@svc/server-ports";

export const SLOT_MS = 1_000;

/** One `take`'s arguments. */
export interface RateTake {
  readonly key: string;
  readonly now: Date;
  readonly cost: number;
  readonly limit: number;
}

/** A key's row as a statement left it: its slots (second → units), and whether the take was applied. */
interface Taken {
  readonly allowed: boolean;
  readonly row: { readonly slots: readonly (string | number)[]; readonly counts: readonly number[] } | undefined;
}

/**
 * Sliding-window rate limits in the database, one row per key: the units taken in each
 * one-second slot still in the window. A take at time t counts every slot that overlaps
 * (t − window, t] — the slot t − window falls in included — so at most `limit` units are
 * taken in ANY window-long span, whatever its alignment (a fixed window lets 2× through
 * across a boundary). The cost of this exactness is that a unit leaves the window up to one
 * slot later than strictly needed.
 *
 * Check and add are one statement: the row lock taken by ON CONFLICT makes concurrent takes
 * (from any replica) see each other, and the WHERE refuses a take that would go over the
 * limit without changing anything. The row holds at most window/slot + 1 slots (expired
 * ones are dropped on each take), so a take reads and writes one small row.
 */
export class TypeOrmRateLimiter implements RateLimiter {
  private readonly span: number;
  /** The hot-path statement (coalesced takes of concurrent requests) as a prepared statement on a raw session (decision 0044). */
  private readonly raw: ReturnType<typeof rawQuery>;

  constructor(private readonly ds: DataSource, windowMs = 60_000) {
    this.raw = rawQuery(ds);
    if (!Number.isInteger(windowMs / SLOT_MS) || windowMs <= 0) throw new RangeError(`the window must be a whole number of seconds, got ${windowMs} ms`);
    this.span = windowMs / SLOT_MS;
  }

  async take(key: string, now: Date, cost: number, limit: number): Promise<RateState> {
    return (await this.takeMany([{ key, now, cost, limit }]))[0] as RateState;
  }

  async peek(key: string, now: Date, limit: number): Promise<RateState> {
    checkCost(0, limit);
    const [row] = (await this.ds.manager.query(`SELECT slots, counts FROM rate_windows WHERE key = $1`, [key])) as { slots: (string | number)[]; counts: number[] }[];
    return this.state(true, row, now, 0, limit);
  }

  async refund(key: string, takenAt: Date, cost: number): Promise<void> {
    checkCost(cost, 0);
    if (cost === 0) return;
    await this.ds.manager.query(
      `UPDATE rate_windows SET counts = (
         SELECT array_agg(CASE WHEN u.s = $2::bigint THEN GREATEST(0, u.n - $3::int) ELSE u.n END ORDER BY u.ord)
           FROM unnest(rate_windows.slots, rate_windows.counts) WITH ORDINALITY AS u(s, n, ord))
        WHERE key = $1 AND $2::bigint = ANY(slots)`,
      [key, slotOf(takenAt), cost],
    );
  }

  /**
   * Many takes, with the same answers as `take` called for each in order. A key's takes (one
   * slot, one limit) are added up and tried as one: nearly always they all fit, and the key's
   * row takes them in one statement and one lock instead of one round each. Only a key whose sum
   * does not fit while some of its takes would is taken again take by take, in call order.
   */
  async takeMany(takes: readonly RateTake[]): Promise<RateState[]> {
    for (const t of takes) checkCost(t.cost, t.limit);
    const out: (RateState | undefined)[] = takes.map(() => undefined);
    const at = (i: number): RateTake => takes[i] as RateTake;
    // A key's takes are summed only if they share the slot (and limit): call order across slots is kept.
    const { groups, apart } = summable(takes, (t) => t.key, (a, b) => a.limit === b.limit && slotOf(a.now) === slotOf(b.now));
    const results = await this.inRounds(groups.map((g) => g.sum));
    groups.forEach(({ idx, sum: take }, j) => {
      const r = results[j] as Taken;
      if (r.allowed && r.row) {
        // As if taken one by one: the window before the group, plus each take in turn.
        const slot = slotOf(take.now);
        let unused = take.cost;
        for (const i of idx) {
          unused -= at(i).cost;
          const counts = r.row.counts.map((n, k) => (Number(r.row?.slots[k]) === slot ? Number(n) - unused : Number(n)));
          out[i] = this.state(true, { slots: r.row.slots, counts }, at(i).now, 0, at(i).limit);
        }
        return;
      }
      const used = r.row ? this.state(false, r.row, take.now, 0, take.limit).used : 0;
      if (idx.length === 1 || idx.every((i) => used + at(i).cost > take.limit)) {
        // None of them fits what is left (a key at its limit): each is refused as it would be alone.
        for (const i of idx) out[i] = this.state(false, r.row, at(i).now, at(i).cost, at(i).limit);
      } else apart.push(...idx);
    });
    if (apart.length > 0) {
      apart.sort((a, b) => a - b);
      const one = await this.inRounds(apart.map(at));
      apart.forEach((i, j) => {
        const r = one[j] as Taken;
        // A refused take changed nothing: the state is the window as it stands, before this cost.
        out[i] = this.state(r.allowed, r.row, at(i).now, r.allowed ? 0 : at(i).cost, at(i).limit);
      });
    }
    return out as RateState[];
  }

  /**
   * Takes in as few statements as possible: one multi-row upsert per round, where a round holds
   * at most one take per key (a second take on a key goes to the next round, so takes on one key
   * apply in call order). Rows are locked in key order, so concurrent calls from any process
   * cannot deadlock. One result per take, in order: whether it was taken, and the key's row after it.
   */
  private async inRounds(takes: readonly RateTake[]): Promise<Taken[]> {
    const out: (Taken | undefined)[] = takes.map(() => undefined);
    const rounds: number[][] = [];
    const seen = new Map<string, number>();
    takes.forEach((t, i) => {
      const round = seen.get(t.key) ?? 0;
      seen.set(t.key, round + 1);
      (rounds[round] ??= []).push(i);
    });
    for (const round of rounds) {
      const idx = [...round].sort((a, b) => ((takes[a] as RateTake).key < (takes[b] as RateTake).key ? -1 : 1));
      const at = (i: number): RateTake => takes[i] as RateTake;
      const rows = (await this.raw("svc_rate_take_many",
        `WITH ${ASYNC_COMMIT}, input AS (
           SELECT * FROM unnest($1::text[], $2::bigint[], $3::int[], $4::int[]) AS t(key, slot, cost, lim)
         ), done AS (
           INSERT INTO rate_windows AS w (key, slots, counts)
           SELECT key, ARRAY[slot], ARRAY[cost] FROM input WHERE cost <= lim ORDER BY key
           ON CONFLICT (key) DO UPDATE SET (slots, counts) = (
               SELECT array_agg(y.s ORDER BY y.s), array_agg(y.n ORDER BY y.s) FROM (
                 SELECT x.s, SUM(x.n)::int AS n FROM (
                   SELECT u.s, u.n FROM unnest(w.slots, w.counts) AS u(s, n) WHERE u.s >= EXCLUDED.slots[1] - $5::int AND u.n > 0
                   UNION ALL SELECT EXCLUDED.slots[1], EXCLUDED.counts[1]
                 ) x GROUP BY x.s
               ) y)
            WHERE (SELECT COALESCE(SUM(u.n), 0) FROM unnest(w.slots, w.counts) AS u(s, n) WHERE u.s >= EXCLUDED.slots[1] - $5::int)
                  + EXCLUDED.counts[1] <= (SELECT i.lim FROM input i WHERE i.key = EXCLUDED.key)
           RETURNING w.key, w.slots, w.counts
         )
         SELECT i.key, d.key IS NOT NULL AS allowed, COALESCE(d.slots, c.slots) AS slots, COALESCE(d.counts, c.counts) AS counts
           FROM input i
           CROSS JOIN async_commit
           LEFT JOIN done d ON d.key = i.key
           LEFT JOIN rate_windows c ON d.key IS NULL AND c.key = i.key`,
        [idx.map((i) => at(i).key), idx.map((i) => slotOf(at(i).now)), idx.map((i) => at(i).cost), idx.map((i) => at(i).limit), this.span],
      )) as { key: string; allowed: boolean; slots: (string | number)[] | null; counts: number[] | null }[];
      const byKey = new Map(rows.map((r) => [r.key, r]));
      for (const i of idx) {
        const r = byKey.get(at(i).key);
        out[i] = { allowed: r?.allowed === true, row: r?.slots && r.counts ? { slots: r.slots, counts: r.counts } : undefined };
      }
    }
    return out as Taken[];
  }

  private state(allowed: boolean, row: Taken["row"], now: Date, pending: number, limit: number): RateState {
    const live: { s: number; n: number }[] = [];
    for (let i = 0; i < (row?.slots.length ?? 0); i++) live.push({ s: Number(row?.slots[i]), n: Number(row?.counts[i]) });
    return windowState(allowed, live, now, this.span, pending, limit);
  }
}

/**
 * What a window's slots (second → units taken in it) mean at `now` for a window of `span` slots:
 * units in the window, and when they (or enough of them for `pending` more) leave it. Shared by
 * the database's limiter and the in-process one, so both answer alike.
 */
export function windowState(allowed: boolean, slots: readonly { s: number; n: number }[], now: Date, span: number, pending: number, limit: number): RateState {
  const nowMs = now.getTime();
  const first = slotOf(now) - span;
  const live = slots.filter((e) => e.s >= first && e.n > 0).sort((a, b) => a.s - b.s);
  const used = live.reduce((sum, e) => sum + e.n, 0);
  // Slot s leaves the window when the current slot passes s + span.
  const leaves = (s: number): number => Math.max(0, (s + span + 1) * SLOT_MS - nowMs);
  const last = live.at(-1);
  let retryAfterMs = 0;
  if (pending > 0 && used + pending > limit) {
    retryAfterMs = Infinity;
    let freed = 0;
    for (const e of live) {
      freed += e.n;
      if (used - freed + pending <= limit) {
        retryAfterMs = leaves(e.s);
        break;
      }
    }
  }
  return { allowed, used, remaining: Math.max(0, limit - used), resetMs: last ? leaves(last.s) : 0, retryAfterMs };
}

export const slotOf = (d: Date): number => Math.floor(d.getTime() / SLOT_MS);

export function checkCost(cost: number, limit: number): void {
  if (!Number.isInteger(cost) || cost < 0) throw new RangeError(`rate cost must be a non-negative integer, got ${cost}`);
  if (!Number.isInteger(limit) || limit < 0) throw new RangeError(`rate limit must be a non-negative integer, got ${limit}`);
}
