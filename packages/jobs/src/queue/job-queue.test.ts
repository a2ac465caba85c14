import type { DataSource } from "typeorm";
import { afterAll, beforeAll, describe } from "vitest";
import { openDataSourceAt, openTestDb, type TestDb } from "../test-support.js";
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
