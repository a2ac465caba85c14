import { anAuditRecord, uniqueId } from "@svc/testing";
import type { DataSource } from "typeorm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HmacAuditKeyring } from "./audit-keys.js";
import { openDataSource } from "./data-source.js";
import { copyExportCsv } from "./repositories/csv-export.js";
import { binaryCopyRow } from "./repositories/csv-export-lines.js";
import { TypeOrmCheckRepository } from "./repositories/typeorm-check-repository.js";
import { ReusableTestDatabases } from "./reusable-test-databases.js";

const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)("the export of stored lines on PostgreSQL", () => {
  const dbs = new ReusableTestDatabases("svc_csv_export");
  let ds: DataSource;
  const account = uniqueId("acc");
  const ROWS = 5_000;

  beforeAll(async () => {
    ds = await dbs.get("postgres");
    const repo = new TypeOrmCheckRepository(ds, new HmacAuditKeyring("the csv export test's audit key, 32+ chars"));
    const [t] = await repo.saveMany([anAuditRecord({ account_id: account })]);
    await ds.query(
      `INSERT INTO checks (id, account_id, seq, created_at, entity_type, entity_value, entity_id, risk_score, risk_level, confidence, channel, actor_key_id,
                           request, entity, verdict, source_outcomes, ruleset, data_versions, signals, prev_hash, record_hash, hash_version, hash_key_id,
                           recommended_action, signal_codes)
       SELECT t.id || '_' || g, t.account_id, 1 + g, t.created_at + g * interval '1 ms', t.entity_type, t.entity_value, t.entity_id, t.risk_score, t.risk_level,
              t.confidence, t.channel, t.actor_key_id, t.request, t.entity, t.verdict, t.source_outcomes, t.ruleset, t.data_versions, t.signals, t.prev_hash,
              t.record_hash, t.hash_version, t.hash_key_id, t.recommended_action, t.signal_codes
         FROM generate_series(1, $2::int - 1) g, checks t WHERE t.id = $1`,
      [t!.id, ROWS],
    );
  }, 120_000);
  afterAll(async () => dbs.close());

  /** The DataSource's pool, counting what the export borrows. */
  const counted = () => {
    const pool = (ds.driver as unknown as { master: { connect: (...a: unknown[]) => unknown; totalCount: number; idleCount: number } }).master;
    const connect = pool.connect.bind(pool);
    const seen = { borrowed: 0, restore: () => void (pool.connect = connect), pool };
    pool.connect = (...a: unknown[]) => {
      seen.borrowed++;
      return connect(...a);
    };
    return seen;
  };

  it("reads every row, one connection per chunk, and gives each back", async () => {
    const c = counted();
    try {
      let text = "";
      for await (const b of copyExportCsv(ds, account, {}, 1_000)!) text += b.toString("utf8");
      expect(text.match(/^chk_/gm)).toHaveLength(ROWS);
      expect(c.borrowed).toBe(ROWS / 1_000 + 1); // the last chunk finds no row after it
      expect(c.pool.idleCount).toBe(c.pool.totalCount);
      // The connections went back outside a transaction, with the planner's settings as they were.
      const states = (await Promise.all(Array.from({ length: c.pool.totalCount }, () =>
        ds.query(`SELECT current_setting('enable_bitmapscan') AS bitmap, current_setting('enable_seqscan') AS seq, now() = statement_timestamp() AS own_transaction`)))).flat();
      expect(new Set(states.map((r) => JSON.stringify(r)))).toEqual(new Set([JSON.stringify({ bitmap: "on", seq: "on", own_transaction: true })]));
    } finally {
      c.restore();
    }
  });

  it("reads no further chunk once the reader has stopped, and gives the connections back", async () => {
    const c = counted();
    try {
      const it = copyExportCsv(ds, account, {}, 1_000)!;
      expect((await it.next()).value?.toString()).toMatch(/^id,created_at,/); // the header
      expect((await it.next()).value?.toString()).toMatch(/^chk_/); // the first chunk
      await it.return(undefined);
      // The chunk read ahead finishes by itself and goes back to the pool.
      const deadline = Date.now() + 5_000;
      while (Date.now() < deadline && c.pool.idleCount !== c.pool.totalCount) await new Promise((r) => setTimeout(r, 20));
      expect(c.pool.idleCount).toBe(c.pool.totalCount);
      expect(c.borrowed).toBe(2); // the first chunk and the one read ahead, of 6
    } finally {
      c.restore();
    }
  });

  it("fails before its first byte when the database cannot be reached (the API answers 503, not a 200 cut short)", async () => {
    const pool = (ds.driver as unknown as { master: { connect: (...a: unknown[]) => unknown } }).master;
    const connect = pool.connect;
    pool.connect = () => Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:5432"));
    try {
      await expect(copyExportCsv(ds, account, {}, 1_000)!.next()).rejects.toThrow(/ECONNREFUSED/);
    } finally {
      pool.connect = connect;
    }
  });

  it("closes a chunk's connection when the database does not answer within the pool's bound, and reads again after", { timeout: 30_000 }, async () => {
    const bounded = await openDataSource({ url: (ds.options as { url: string }).url, queryTimeoutMs: 1_500, poolSize: 2 });
    const locker = ds.createQueryRunner();
    // Should the bound not work, the lock goes after 10 s anyway, so that the test fails on its
    // assertions instead of hanging with the lock held.
    let unlock: NodeJS.Timeout | undefined;
    try {
      await locker.startTransaction();
      await locker.query(`LOCK TABLE check_exports IN ACCESS EXCLUSIVE MODE`);
      unlock = setTimeout(() => void locker.rollbackTransaction().catch(() => {}), 10_000);
      const started = Date.now();
      const drained = (async () => {
        for await (const _ of copyExportCsv(bounded, account, {}, 1_000)!) void _;
      })();
      await expect(drained).rejects.toThrow(/timeout|terminated|closed/i);
      expect(Date.now() - started).toBeLessThan(6_000);
      clearTimeout(unlock);
      await locker.rollbackTransaction();
      let text = "";
      for await (const b of copyExportCsv(bounded, account, {}, 1_000)!) text += b.toString("utf8");
      expect(text.match(/^chk_/gm)).toHaveLength(ROWS);
    } finally {
      clearTimeout(unlock);
      if (locker.isTransactionActive) await locker.rollbackTransaction();
      await locker.release();
      await bounded.destroy();
    }
  });

  it("has nothing to offer on a DataSource without a pg pool", async () => {
    const pglite = await dbs.get("pglite");
    expect(copyExportCsv(pglite, account)).toBeNull();
  }, 60_000);
});

describe("one row of binary COPY output", () => {
  const header = Buffer.concat([Buffer.from("PGCOPY\n\xff\r\n\0", "latin1"), Buffer.from([0, 0, 0, 0, 0, 0, 0, 0])]);
  const field = (v: string | null) => (v === null ? Buffer.from([0xff, 0xff, 0xff, 0xff]) : Buffer.concat([int32(Buffer.byteLength(v)), Buffer.from(v, "utf8")]));
  const int32 = (n: number) => { const b = Buffer.alloc(4); b.writeInt32BE(n); return b; };
  const int16 = (n: number) => { const b = Buffer.alloc(2); b.writeInt16BE(n); return b; };
  const row = (...values: (string | null)[]) => Buffer.concat([int16(values.length), ...values.map(field)]);
  const trailer = int16(-1);

  it("gives each column's bytes as stored, null for NULL", () => {
    const out = binaryCopyRow(Buffer.concat([header, row("a,b\r\nÄ€\r\n", null, "chk_1"), trailer]), 3);
    expect(out.map((b) => b?.toString("utf8") ?? null)).toEqual(["a,b\r\nÄ€\r\n", null, "chk_1"]);
  });

  it("skips a header extension", () => {
    const extended = Buffer.concat([header.subarray(0, 15), int32(3), Buffer.from("xyz"), row("t"), trailer]);
    expect(binaryCopyRow(extended, 1).map((b) => b?.toString())).toEqual(["t"]);
  });

  it("refuses what is not exactly one row of the columns asked for", () => {
    expect(() => binaryCopyRow(Buffer.from("id,created_at\r\n"), 1)).toThrow(/signature/);
    expect(() => binaryCopyRow(Buffer.concat([header, row("a", "b"), trailer]), 3)).toThrow(/3 columns/);
    expect(() => binaryCopyRow(Buffer.concat([header, row("abc")]).subarray(0, -1), 1)).toThrow(/cut short/);
    expect(() => binaryCopyRow(Buffer.concat([header, row("a"), row("b"), trailer]), 1)).toThrow(/more than one row/);
    const withOids = Buffer.from(Buffer.concat([header, row("a"), trailer]));
    withOids.writeUInt32BE(1 << 16, 11);
    expect(() => binaryCopyRow(withOids, 1)).toThrow(/flags/);
    expect(() => binaryCopyRow(Buffer.concat([header, int16(1), int32(-2), trailer]), 1)).toThrow(/negative length/);
  });
});
