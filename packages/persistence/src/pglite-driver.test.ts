import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DataSource } from "typeorm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniqueId } from "./contract-suites.js";
import { openDataSource } from "./data-source.js";
import { AccountEntity } from "./entities/account.js";
import type { PgLikeResult, PglitePool } from "./pglite-driver.js";

const NOW = new Date("2026-11-01T00:00:00Z");
const row = (id: string) => ({ id, name: "t", plan: "free" as const, created_at: NOW });

describe("PGlite driver (embedded mode, one on-disk database for the file)", () => {
  let dir: string;
  let ds: DataSource;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "svc-pglite-"));
    ds = await openDataSource({ dataDir: dir });
  }, 120_000);
  afterAll(async () => {
    if (ds?.isInitialized) await ds.destroy();
    await rm(dir, { recursive: true, force: true });
  });

  it("isolates concurrent transactions: a rolled-back row is never committed", async () => {
    const kept = uniqueId("acc");
    const dropped = uniqueId("acc");
    const results = await Promise.allSettled([
      ds.transaction(async (m) => {
        await m.getRepository(AccountEntity).insert(row(dropped));
        await new Promise((r) => setTimeout(r, 20));
        throw new Error("roll me back");
      }),
      ds.transaction(async (m) => {
        await m.getRepository(AccountEntity).insert(row(kept));
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "fulfilled"]);
    const ids = (await ds.getRepository(AccountEntity).findBy([{ id: kept }, { id: dropped }])).map((a) => a.id);
    expect(ids).toEqual([kept]);
  });

  it("rejects a failing statement as a promise, inside and outside transactions, and keeps working", async () => {
    await expect(ds.query("SELECT no_such_column FROM accounts")).rejects.toThrow(/no_such_column/);
    await expect(ds.transaction((m) => m.query("INSERT INTO accounts (id) VALUES (NULL)"))).rejects.toThrow();
    const id = uniqueId("acc");
    await expect(ds.getRepository(AccountEntity).insert({ ...row(id), role: "boss" as never })).rejects.toThrow(/accounts_role_check/);
    expect(await ds.query("SELECT 1 AS one")).toEqual([{ one: 1 }]);
  });

  it("reports affected row counts for updates and deletes", async () => {
    const ids = [uniqueId("acc"), uniqueId("acc"), uniqueId("acc")];
    await ds.getRepository(AccountEntity).insert(ids.map(row));
    const updated = await ds.createQueryBuilder().update(AccountEntity).set({ plan: "pro" }).where("id IN (:...ids)", { ids }).execute();
    expect(updated.affected).toBe(3);
    const deleted = await ds.getRepository(AccountEntity).delete({ id: ids[0] as string });
    expect(deleted.affected).toBe(1);
    expect((await ds.getRepository(AccountEntity).delete({ id: "acc_none" })).affected).toBe(0);
  });

  /** The pool TypeORM got from our driver. */
  const pool = (): PglitePool => (ds.driver as unknown as { master: PglitePool }).master;

  it("lends the session to one borrower at a time, first come first served", async () => {
    const order: string[] = [];
    const first = await pool().connect();
    const second = pool().connect().then((s) => {
      order.push("second got it");
      s.release();
    });
    await first.query("SELECT 1");
    await new Promise((r) => setTimeout(r, 20));
    order.push("first done");
    first.release();
    await second;
    expect(order).toEqual(["first done", "second got it"]);
  });

  it("reports callback-style errors through the callback only", async () => {
    const outcome = await new Promise<{ err: Error | null; result?: PgLikeResult }>((resolve) => {
      pool().connect((err, session, release) => {
        if (err || !session || !release) return resolve({ err });
        session.query("SELECT * FROM nowhere", (qErr, result) => {
          release();
          resolve(result ? { err: qErr, result } : { err: qErr });
        });
      });
    });
    expect(outcome.err?.message).toMatch(/nowhere/);
    expect(outcome.result).toBeUndefined();
  });

  it("gives pg-shaped results: rows, rowCount and command", async () => {
    await pool().query("CREATE TEMP TABLE t (n int)");
    expect(await pool().query("INSERT INTO t VALUES ($1), ($2)", [1, 2])).toMatchObject({ rowCount: 2, command: "INSERT" });
    expect(await pool().query("UPDATE t SET n = n + 1")).toMatchObject({ rowCount: 2, command: "UPDATE", rows: [] });
    expect(await pool().query("SELECT n FROM t ORDER BY n")).toMatchObject({ rows: [{ n: 2 }, { n: 3 }], rowCount: 2, command: "SELECT" });
  });

  it("restarts the database in place: data kept, statements queued meanwhile run after it, the directory stays locked", async () => {
    // openDataSource does this after migrating a new database (decision 0081).
    const pool = (ds.driver as unknown as { master: PglitePool }).master;
    const id = uniqueId("acc");
    await ds.getRepository(AccountEntity).insert(row(id));
    const restarted = pool.restart();
    const queued = ds.getRepository(AccountEntity).findOneBy({ id });
    await restarted;
    expect((await queued)?.id).toBe(id);
    await expect(openDataSource({ dataDir: dir })).rejects.toThrow(/in use by another svc process/);
    expect(await ds.showMigrations()).toBe(false);
  });

  it("runs named prepared statements: typed parameters and results, an error leaves the session usable, a restart prepares them again", async () => {
    const pool = (ds.driver as unknown as { master: PglitePool }).master;
    const prepared = async (name: string, text: string, values: unknown[]) => {
      const s = await pool.connect();
      try {
        return await s.prepared(name, text, values);
      } finally {
        s.release();
      }
    };
    const INSERT = `INSERT INTO accounts (id, name, plan, created_at) SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[]) RETURNING id, created_at`;
    const [a, b] = [uniqueId("acc"), uniqueId("acc")];
    const first = await prepared("test_accounts_insert", INSERT, [[a], ["t"], ["free"], [NOW.toISOString()]]);
    expect(first.rows).toEqual([{ id: a, created_at: NOW }]);
    expect(first.rowCount).toBe(1);
    // The same statement again, then one that fails (duplicate key): an error, and the next statement still runs.
    await prepared("test_accounts_insert", INSERT, [[b], ["t"], ["free"], [NOW.toISOString()]]);
    await expect(prepared("test_accounts_insert", INSERT, [[a], ["t"], ["free"], [NOW.toISOString()]])).rejects.toMatchObject({ code: "23505" });
    await expect(prepared("test_accounts_insert", "SELECT 1", [])).rejects.toThrow(/prepared with another text/);
    await expect(prepared("test_bad", "SELEC nothing", [])).rejects.toThrow(/syntax error/);
    const COUNT = `SELECT count(*)::int AS n FROM accounts WHERE id = ANY($1::text[])`;
    expect((await prepared("test_accounts_count", COUNT, [[a, b]])).rows).toEqual([{ n: 2 }]);
    // A reopened instance has no prepared statements: they are prepared again on first use.
    await pool.restart();
    expect((await prepared("test_accounts_count", COUNT, [[a, b, "nobody"]])).rows).toEqual([{ n: 2 }]);
    // Inside a transaction: rolled back with it.
    const s = await pool.connect();
    try {
      await s.query("BEGIN");
      await s.prepared("test_accounts_insert", INSERT, [["acc_rolled_back"], ["t"], ["free"], [NOW.toISOString()]]);
      await s.query("ROLLBACK");
    } finally {
      s.release();
    }
    expect((await prepared("test_accounts_count", COUNT, [["acc_rolled_back"]])).rows).toEqual([{ n: 0 }]);
  });

  it("keeps the data across a restart and does not migrate twice", async () => {
    const id = uniqueId("acc");
    await ds.getRepository(AccountEntity).insert(row(id));
    await ds.destroy();
    ds = await openDataSource({ dataDir: dir });
    expect((await ds.getRepository(AccountEntity).findOneBy({ id }))?.id).toBe(id);
    expect(await ds.showMigrations()).toBe(false);
    expect((await ds.driver.createSchemaBuilder().log()).upQueries).toEqual([]);
  }, 60_000);
});
