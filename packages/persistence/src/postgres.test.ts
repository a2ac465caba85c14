import { randomBytes } from "node:crypto";
import pg from "pg";
import type { DataSource } from "typeorm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aPayment, extendingGrant, fresh } from "@svc/bot-kernel";
import { typeOrmBotContracts } from "./bot-contract-suites.js";
import { anAuditRecord, typeOrmContracts, uniqueId } from "./contract-suites.js";
import { HmacAuditKeyring } from "./audit-keys.js";
import { openDataSource } from "./data-source.js";
import { TypeOrmBotPaymentLedger } from "./repositories/typeorm-bot-payment-ledger.js";
import { TypeOrmBotSettingsStore } from "./repositories/typeorm-bot-settings-store.js";
import { TypeOrmBotStatsStore } from "./repositories/typeorm-bot-stats-store.js";
import { TypeOrmCheckRepository } from "./repositories/typeorm-check-repository.js";
import { TypeOrmUsageCounter } from "./repositories/typeorm-usage-counter.js";
import { TypeOrmRateLimiter } from "./repositories/typeorm-rate-limiter.js";
import { ASYNC_COMMIT } from "./repositories/sql.js";

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
  typeOrmBotContracts("PostgreSQL", () => ds);

  it("commits the hot path's counters without waiting for their WAL, and the setting ends with each statement", async () => {
    const u = new URL(url as string);
    u.pathname = `/${database}`;
    const one = await openDataSource({ url: u.toString(), poolSize: 1 });
    try {
      const mechanism = (await one.transaction(async (m) => {
        await m.query(`WITH ${ASYNC_COMMIT} SELECT sync FROM async_commit`);
        return ((await m.query(`SELECT current_setting('synchronous_commit') AS s`)) as { s: string }[])[0]?.s;
      }));
      expect(mechanism).toBe("off");
      const key = uniqueId("key");
      const window = new Date("2026-11-01T00:00:00Z");
      const counter = new TypeOrmUsageCounter(one);
      expect((await counter.hitMany([{ key, window: "month", windowStart: window, cost: 2, limit: 5 }]))[0]).toMatchObject({ allowed: true, count: 2 });
      expect((await new TypeOrmRateLimiter(one).takeMany([{ key, now: window, cost: 1, limit: 3 }]))[0]).toMatchObject({ allowed: true, used: 1 });
      // The one connection of the pool is back to the server's default for the next statement.
      expect(((await one.query(`SHOW synchronous_commit`)) as { synchronous_commit: string }[])[0]?.synchronous_commit).toBe("on");
      expect((await counter.hitMany([{ key, window: "month", windowStart: window, cost: 4, limit: 5 }]))[0]).toMatchObject({ allowed: false, count: 2 });
    } finally {
      await one.destroy();
    }
  });

  it("stores the audit record's JSON as the sealed text (json), lz4-compressed where the server has lz4", async () => {
    const lz4 = ((await ds.query(`SELECT 'lz4' = ANY(enumvals) AS lz4 FROM pg_settings WHERE name = 'default_toast_compression'`)) as { lz4: boolean }[])[0]?.lz4 === true;
    const columns = (await ds.query(
      `SELECT attname AS name, format_type(atttypid, atttypmod) AS type, attcompression AS compression FROM pg_attribute
        WHERE attrelid = 'checks'::regclass AND attname IN ('request', 'entity', 'verdict', 'source_outcomes', 'data_versions', 'signals') ORDER BY attname`,
    )) as { name: string; type: string; compression: string }[];
    expect(columns).toHaveLength(6);
    for (const c of columns) expect(c).toEqual({ name: c.name, type: "json", compression: lz4 ? "l" : "" });
  });

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

  it("grants a Stars payment once when two processes receive the same update at once", async () => {
    const p = aPayment({ platform: "telegram" });
    const grants = [extendingGrant(p), extendingGrant(p)];
    const ledgers = [new TypeOrmBotPaymentLedger(ds), new TypeOrmBotPaymentLedger(other)];
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => (ledgers[i % 2] as TypeOrmBotPaymentLedger).record(p, grants[i % 2])));
    expect(results.filter((r) => r)).toHaveLength(1);
    expect((grants[0]?.calls ?? 0) + (grants[1]?.calls ?? 0)).toBe(1);
    const plan = (await new TypeOrmBotSettingsStore(ds, "telegram").get(p.chatId))?.plan;
    expect(plan?.until).toBe(new Date(Date.parse(p.paidAt) + 30 * 86_400_000).toISOString());
  });

  it("loses no stat increment from two processes counting at once", async () => {
    const chat = fresh("chat");
    const a = new TypeOrmBotStatsStore(ds, "telegram");
    const b = new TypeOrmBotStatsStore(other, "telegram");
    await Promise.all(Array.from({ length: 100 }, (_, i) => (i % 2 ? a : b).add(chat, "messages_scanned", 2)));
    expect((await a.get(chat)).messages_scanned).toBe(200);
  });

  it("forms one chain from saves by two processes at once", async () => {
    const account = uniqueId("acc");
    // Replicas share the audit key (SVC_AUDIT_KEY).
    const keys = new HmacAuditKeyring("the audit key every replica shares, 32+");
    const a = new TypeOrmCheckRepository(ds, keys);
    const b = new TypeOrmCheckRepository(other, keys);
    await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).save(anAuditRecord({ account_id: account }))));
    expect(await a.verifyChain(account)).toEqual({ ok: true, checked: 40, legacy: 0 });
  });
});
