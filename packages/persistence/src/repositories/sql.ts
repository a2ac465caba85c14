import { randomUUID } from "node:crypto";

/** A random id with a type prefix, e.g. `acc_3f2a…` (the caller may bring its own instead). */
export const newId = (prefix: string): string => `${prefix}_${randomUUID().replaceAll("-", "")}`;

/**
 * The affected-row count of a raw UPDATE or DELETE run through `manager.query`: TypeORM's
 * postgres dialect returns `[rows, count]` for those commands.
 */
export function affectedOf(raw: unknown): number {
  return Array.isArray(raw) && typeof raw[1] === "number" ? raw[1] : 0;
}

export const iso = (d: Date | string): string => (d instanceof Date ? d : new Date(d)).toISOString();
export const isoOrNull = (d: Date | string | null | undefined): string | null => (d == null ? null : iso(d));

/** The rows of a raw statement: UPDATE and DELETE answer `[rows, affected]`, everything else the rows. */
export async function rowsOf<T>(q: { query(text: string, params?: unknown[]): Promise<unknown> }, text: string, params: readonly unknown[] = []): Promise<T[]> {
  const r: unknown = await q.query(text, params as unknown[]);
  if (Array.isArray(r) && r.length === 2 && Array.isArray(r[0]) && typeof r[1] === "number") return r[0] as T[];
  return (Array.isArray(r) ? r : []) as T[];
}

/**
 * A CTE (`async_commit`, to be joined by the statement so it runs) that makes the statement's own
 * transaction commit without waiting for its WAL to reach disk (decision 0098). For the usage and
 * rate-window counters of the hot path: their row lock is then held for the statement, not for an
 * fsync, so concurrent requests of one key no longer queue behind each other's flushes. Nothing an
 * answer depends on can be lost: the check's audit record commits synchronously afterwards, and
 * flushing its commit flushes every earlier WAL record, the counter's included. `SET LOCAL` scope:
 * the setting ends with the transaction.
 */
export const ASYNC_COMMIT = `async_commit AS MATERIALIZED (SELECT set_config('synchronous_commit', 'off', true) AS sync)`;
