import { randomBytes } from "node:crypto";
import pg from "pg";
import type { DataSource } from "typeorm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anAuditRecord, typeOrmContracts, uniqueId } from "./contract-suites.js";
import { openDataSource } from "./data-source.js";
import { TypeOrmCheckRepository } from "./repositories/typeorm-check-repository.js";
import { TypeOrmUsageCounter } from "./repositories/typeorm-usage-counter.js";

const url = process.env.TEST_DATABASE_URL;

/**
 * Each run of this file gets its own database, created next to TEST_DATABASE_URL's and dropped
 * afterwards, so parallel files and repeated runs never see each other's rows.
 */
describe.skipIf(!url)("PostgreSQL (TEST_DATABASE_URL)", () => {
  const database = `svc_test_${randomBytes(6).toString("hex")}`;
  let ds: DataSource;
  /** A second pool: another process, as far as the database can tell. */
  let other: DataSource;

  const admin = async <T>(run: (c: pg.Client) => Promise<T>): Promise<T> => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      return await run(c);
    } finally {
      await c.end();
    }
  };

  beforeAll(async () => {
    await admin((c) => c.query(`CREATE DATABASE "${database}"`));
    const u = new URL(url as string);
    u.pathname = `/${database}`;
    ds = await openDataSource({ url: u.toString() });
    other = await openDataSource({ url: u.toString() });
  }, 60_000);

  afterAll(async () => {
    await other?.destroy();
    await ds?.destroy();
    await admin((c) => c.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`));
  });

  typeOrmContracts("PostgreSQL", () => ds);

  it("runs the migrations once: a second DataSource finds nothing to do and no schema drift", async () => {
    expect(await other.showMigrations()).toBe(false);
    expect((await ds.driver.createSchemaBuilder().log()).upQueries).toEqual([]);
  });

  it("keeps one usage limit across two processes hitting it at once", async () => {
    const key = uniqueId("key");
    const window = new Date("2026-11-01T10:00:00Z");
    const a = new TypeOrmUsageCounter(ds);
    const b = new TypeOrmUsageCounter(other);
    const hits = await Promise.all(Array.from({ length: 100 }, (_, i) => (i % 2 ? a : b).hit(key, "minute", window, 1, 30)));
    expect(hits.filter((h) => h.allowed)).toHaveLength(30);
    expect((await a.hit(key, "minute", window, 0, 30)).count).toBe(30);
  });

  it("forms one chain from saves by two processes at once", async () => {
    const account = uniqueId("acc");
    const a = new TypeOrmCheckRepository(ds);
    const b = new TypeOrmCheckRepository(other);
    await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).save(anAuditRecord({ account_id: account }))));
    expect(await a.verifyChain(account)).toEqual({ ok: true, checked: 40 });
  });
});
