// `svc migrate` on PostgreSQL as an operator runs it before the first start: DATABASE_URL alone,
// no audit key (migrating does not use one), on an empty database and then again. It prepares the
// job queue too (pg-boss's schema and svc's queues), as a server's first start would.
import { openDataSource, scratchDatabase, type ScratchDatabase } from "@svc/persistence";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { svc } from "./spawn.js";

const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)("svc migrate on PostgreSQL", { timeout: 120_000 }, () => {
  let db: ScratchDatabase;
  beforeAll(async () => {
    db = await scratchDatabase(url as string, "svc_cli_migrate");
  });
  afterAll(async () => db?.drop());

  it("migrates an empty database with DATABASE_URL alone and makes the job queues; then finds nothing to apply", async () => {
    const host = new URL(db.url).host.replace(/\./g, "\\.");
    const first = await svc(["migrate"], { env: { DATABASE_URL: db.url } });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toBe("");
    expect(first.stdout).toMatch(new RegExp(`^Database ready: PostgreSQL \\(${host}\\)\\nApplied now: \\w+(, \\w+)+\\.\\nSchema: \\d+ migration\\(s\\), the latest \\w+\\.\\n$`));
    const ds = await openDataSource({ url: db.url, poolSize: 1 });
    try {
      const queues = ((await ds.query(`SELECT name FROM pgboss.queue ORDER BY name`)) as { name: string }[]).map((q) => q.name);
      // svc's queues (as @svc/jobs names them: checks, their dead letters, account purges).
      expect(queues).toEqual(["account-purge", "screen-checks", "screen-checks-dead"]);
    } finally {
      await ds.destroy();
    }
    const second = await svc(["migrate"], { env: { DATABASE_URL: db.url } });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toMatch(new RegExp(`^Database ready: PostgreSQL \\(${host}\\)\\nAlready up to date: nothing to apply\\.\\nSchema: \\d+ migration\\(s\\), the latest \\w+\\.\\n$`));
  });
});

describe("svc migrate without the database", { timeout: 60_000 }, () => {
  it("asks for no audit key, and says in one line why it cannot reach PostgreSQL", async () => {
    const ran = await svc(["migrate"], { env: { DATABASE_URL: "postgres://postgres@127.0.0.1:9/none" } });
    expect(ran.code).toBe(3);
    expect(ran.stderr).not.toContain("SVC_AUDIT_KEY");
    expect(ran.stderr).toMatch(/Cannot open the database \(PostgreSQL \(127\.0\.0\.1:9\)\)/);
    expect(ran.stderr).toContain("Check DATABASE_URL and that PostgreSQL is running.");
  });
});
