import type { DataSource } from "typeorm";
import { PglitePool, type PgliteSession } from "../pglite-driver.js";

/**
 * One database session borrowed from the pool TypeORM already holds, for statements on a hot
 * path: no query runner, entity metadata or logging per statement. On PostgreSQL each statement
 * is a named prepared statement of the `pg` client (parsed and planned once per connection); on
 * PGlite, one prepared in the database instance (decision 0094). Text must be fixed per name.
 */
export interface RawSession {
  query<R>(name: string, text: string, values: readonly unknown[]): Promise<R[]>;
  /** Runs a statement without parameters (BEGIN, COMMIT, ROLLBACK). */
  exec(text: string): Promise<void>;
  /** Gives the session back; with an error, a `pg` connection is closed instead of reused. */
  release(err?: Error): void;
}

interface PgClient {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
  query(text: string): Promise<unknown>;
  release(err?: Error | boolean): void;
  on(event: "error", listener: (err: Error) => void): unknown;
  removeListener(event: "error", listener: (err: Error) => void): unknown;
}
interface PgPool {
  connect(): Promise<PgClient>;
}

/**
 * Whether `ds` is a DataSource with a pool of its own (an initialised one). A transaction-scoped
 * stand-in (the worker stores a check inside its job's transaction) has none: callers then run
 * the same statements through it.
 */
export function hasRawPool(ds: DataSource): boolean {
  return (ds as { driver?: { master?: unknown } }).driver?.master !== undefined;
}

/** Borrows sessions from the DataSource's own pool (`pg.Pool` on PostgreSQL, `PglitePool` on PGlite). */
export function rawSessions(ds: DataSource): () => Promise<RawSession> {
  const pool = (): PgPool | PglitePool => {
    const master = (ds.driver as unknown as { master?: PgPool | PglitePool }).master;
    if (!master) throw new Error("the data source is not initialised");
    return master;
  };
  return async () => {
    const p = pool();
    if (p instanceof PglitePool) {
      const s = (await p.connect()) as PgliteSession & { release: (err?: unknown) => void };
      return {
        query: async <R>(name: string, text: string, values: readonly unknown[]) => (await s.prepared(name, text, values)).rows as R[],
        exec: async (text) => {
          await s.query(text);
        },
        release: (err) => s.release(err),
      };
    }
    const c = guardWhileBorrowed(await p.connect());
    return {
      query: async <R>(name: string, text: string, values: readonly unknown[]) => (await c.client.query({ name, text, values: values as unknown[] })).rows as R[],
      exec: async (text) => {
        await c.client.query(text);
      },
      release: (err) => c.release(err),
    };
  };
}

/** The part of a `pg` pool client `guardWhileBorrowed` needs. */
interface BorrowableClient {
  release(err?: Error | boolean): void;
  on(event: "error", listener: (err: Error) => void): unknown;
  removeListener(event: "error", listener: (err: Error) => void): unknown;
}

/**
 * A connection borrowed from a `pg` pool, listened to while it is out. A connection that breaks
 * while borrowed (the server restarts between two statements) emits 'error' on the client, and
 * the pool listens only while it is idle: without a listener of ours the process would crash.
 * The next statement on it fails; `release` then closes it instead of giving it back (as it does
 * when given an error).
 */
export function guardWhileBorrowed<C extends BorrowableClient>(client: C): { readonly client: C; release(err?: Error): void } {
  let broken: Error | undefined;
  const onError = (err: Error): void => {
    broken = err;
  };
  client.on("error", onError);
  return {
    client,
    release: (err) => {
      client.removeListener("error", onError);
      client.release(err ?? broken ?? false);
    },
  };
}

/** Runs `work` in one transaction on a raw session; rolls back (and discards a broken connection) on error. */
export async function rawTransaction<T>(session: () => Promise<RawSession>, work: (s: RawSession) => Promise<T>): Promise<T> {
  const s = await session();
  try {
    await s.exec("BEGIN");
    const out = await work(s);
    await s.exec("COMMIT");
    s.release();
    return out;
  } catch (e) {
    const err = e instanceof Error ? e : new Error(String(e));
    try {
      await s.exec("ROLLBACK");
      s.release();
    } catch {
      s.release(err);
    }
    throw e;
  }
}

/** One statement on a raw session (a named prepared statement on PostgreSQL), for hot-path statements outside a transaction. */
export function rawQuery(ds: DataSource): <R>(name: string, text: string, values: readonly unknown[]) => Promise<R[]> {
  const session = rawSessions(ds);
  return async <R>(name: string, text: string, values: readonly unknown[]): Promise<R[]> => {
    if (!hasRawPool(ds)) return (await ds.query(text, [...values])) as R[];
    const s = await session();
    try {
      const rows = await s.query<R>(name, text, values);
      s.release();
      return rows;
    } catch (e) {
      // An error the server reported (it has a severity) leaves a healthy session, no transaction
      // being open; anything else may be a broken connection, which is dropped.
      s.release(e instanceof Error && !("severity" in e) ? e : undefined);
      throw e;
    }
  };
}
