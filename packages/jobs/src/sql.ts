import { createHash } from "node:crypto";
import type pg from "pg";
import type { DataSource, EntityManager } from "typeorm";

/** A DataSource, or the EntityManager of a transaction (inside one, always use it: see pglite-driver). */
export type Queryable = Pick<EntityManager, "query"> | Pick<DataSource, "query">;

/**
 * The rows of a raw statement. TypeORM's postgres dialect answers UPDATE and DELETE with
 * `[rows, affected]` and everything else with the rows; rows are objects, never arrays.
 */
export async function rowsOf<T>(q: Queryable, text: string, params: readonly unknown[] = []): Promise<T[]> {
  const r: unknown = await q.query(text, params as unknown[]);
  if (Array.isArray(r) && r.length === 2 && Array.isArray(r[0]) && typeof r[1] === "number") return r[0] as T[];
  return (Array.isArray(r) ? r : []) as T[];
}

export const iso = (d: Date | string): string => (d instanceof Date ? d : new Date(d)).toISOString();
export const isoOrNull = (d: Date | string | null | undefined): string | null => (d == null ? null : iso(d));

/** `($1, $2, …), ($n+1, …)` for a multi-row VALUES list, with optional casts per column. */
export function valuesList(rows: readonly (readonly unknown[])[], casts: readonly string[] = []): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const tuples = rows.map((row) => `(${row.map((v, i) => {
    params.push(v);
    return `$${params.length}${casts[i] ? `::${casts[i]}` : ""}`;
  }).join(", ")})`);
  return { sql: tuples.join(", "), params };
}

/**
 * A transaction's EntityManager in the shape of a DataSource, for repositories that open their
 * own transaction: theirs becomes a savepoint of the caller's, so their writes commit (or roll
 * back) with it. Used to store audit records in the worker's transaction.
 */
export function transactionScoped(m: EntityManager): DataSource {
  return {
    manager: m,
    transaction: ((...args: unknown[]) => (m.transaction as (...a: unknown[]) => unknown)(...args)) as DataSource["transaction"],
    query: ((text: string, params?: unknown[]) => m.query(text, params)) as DataSource["query"],
    getRepository: ((target: unknown) => m.getRepository(target as never)) as DataSource["getRepository"],
  } as unknown as DataSource;
}

/**
 * Runs a hot statement as a named prepared statement on PostgreSQL, so each connection plans it
 * once (pg-boss's partitioned insert costs PostgreSQL about as much to plan as to run); plainly
 * elsewhere (PGlite has no plan cache to gain from). Statements are named by a hash of their text.
 */
export function preparedRunner(ds: DataSource): (text: string, params: readonly unknown[]) => Promise<unknown[]> {
  const master = (ds.driver as { master?: pg.Pool } | undefined)?.master;
  // On PostgreSQL, TypeORM's driver opens its pool with the `pg` module it loaded itself; embedded,
  // the DataSource is given PGlite's stand-in (`driver`, @svc/persistence's pglite-driver), and a
  // transaction-scoped stand-in has no pool. `pg` is not imported here: the embedded default never loads it.
  const onPg = master !== undefined && (ds.options as { driver?: unknown } | undefined)?.driver === undefined;
  if (!master || !onPg) return (text, params) => rowsOf(ds, text, params);
  const names = new Map<string, string>();
  return async (text, values) => {
    let name = names.get(text);
    if (!name) names.set(text, (name = `svc_${createHash("sha1").update(text).digest("hex").slice(0, 16)}`));
    return (await master.query({ name, text, values: [...values] })).rows;
  };
}
