import type { DataSource } from "typeorm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countingQueries, openDataSourceAt, openTestDb, type TestDb } from "../test-support.js";
import { jobQueueContract } from "./job-queue-contract.js";
import { PgBossJobQueue } from "./pg-boss-job-queue.js";
import { SqlJobQueue } from "./sql-job-queue.js";

describe("embedded queue on PGlite", () => {
  let db: TestDb;
  beforeAll(async () => {
    db = await openTestDb("pglite");
  }, 120_000);
  afterAll(async () => db?.close());
  jobQueueContract("SqlJobQueue on PGlite", { ds: () => db.ds, make: async () => new SqlJobQueue(db.ds, { maintenanceIntervalMs: 200 }), leaseSeconds: 1 });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("queues on PostgreSQL", () => {
  let db: TestDb;
  let other: DataSource;
  beforeAll(async () => {
    db = await openTestDb("postgres");
    other = await openDataSourceAt(db.url as string);
  }, 120_000);
  afterAll(async () => {
    await other?.destroy();
    await db?.close();
  });
  let k = 0;
  // Alternate DataSources: the two "workers" of a test use separate connection pools.
  jobQueueContract("SqlJobQueue on PostgreSQL", { ds: () => db.ds, make: async () => new SqlJobQueue(++k % 2 ? db.ds : other, { maintenanceIntervalMs: 200 }), leaseSeconds: 1 });
  jobQueueContract("PgBossJobQueue (pg-boss 10) on PostgreSQL", {
    ds: () => db.ds,
    make: async () => new PgBossJobQueue({ connectionString: db.url as string, supervise: true, maintenanceIntervalSeconds: 1, maxConnections: 3 }).start(),
    leaseSeconds: 1,
  });
});

describe("embedded queue of a single process: idle consumers sleep until a job is due (decision 0108)", () => {
  let db: TestDb;
  beforeAll(async () => {
    db = await openTestDb("pglite");
  }, 120_000);
  afterAll(async () => db?.close());
  const settings = { retryLimit: 2, retryDelaySeconds: 1, leaseSeconds: 30 };

  it("runs a job sent for later when it is due, and a failed one at its retry, without polling between", async () => {
    // The DataSource, counting the statements sent to it.
    const counting = countingQueries(db.ds);
    const q = new SqlJobQueue(counting.ds, { singleProcess: true });
    await q.createQueue("later", settings);
    await q.createQueue("flaky", settings);
    const t0 = performance.now();
    const ran: { job: string; at: number }[] = [];
    let failures = 0;
    // A poll interval of a minute: a loop that polled would not see these jobs within the test.
    await q.work("later", { pollIntervalMs: 60_000 }, async (jobs) => void ran.push(...jobs.map((j) => ({ job: String(j.data), at: performance.now() - t0 }))));
    await q.work("flaky", { pollIntervalMs: 60_000 }, async (jobs) => {
      if (failures++ === 0) throw new Error("first attempt fails");
      ran.push(...jobs.map((j) => ({ job: String(j.data), at: performance.now() - t0 })));
    });
    await q.send("later", "later", { startAfter: new Date(Date.now() + 700) });
    await q.send("flaky", "flaky");
    await new Promise((r) => setTimeout(r, 2_500));
    const idleFrom = counting.count();
    await new Promise((r) => setTimeout(r, 1_000));
    const idleStatements = counting.count() - idleFrom;
    await q.stop({ timeoutMs: 1_000 });
    const at = (job: string) => ran.find((r) => r.job === job)?.at ?? Number.NaN;
    expect(at("later")).toBeGreaterThanOrEqual(650);
    expect(at("later")).toBeLessThan(2_000);
    // Retried one second (retryDelaySeconds) after its failure.
    expect(at("flaky")).toBeGreaterThanOrEqual(900);
    expect(at("flaky")).toBeLessThan(2_400);
    // Nothing waits: no statement in a second (a loop polling every second would send two).
    expect(idleStatements).toBe(0);
  }, 30_000);
});
