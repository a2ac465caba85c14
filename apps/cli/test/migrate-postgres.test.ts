// `svc migrate` on PostgreSQL as an operator runs it before the first start: DATABASE_URL alone,
// no audit key (migrating does not use one), on an empty database and then again.
import { scratchDatabase, type ScratchDatabase } from "@svc/persistence";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { svc } from "./spawn.js";

const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)("svc migrate on PostgreSQL", { timeout: 120_000 }, () => {
  let db: ScratchDatabase;
  beforeAll(async () => {
    db = await scratchDatabase(url as string, "svc_cli_migrate");
  });
  afterAll(async () => db?.drop());

  it("migrates an empty database with DATABASE_URL alone, then finds nothing to apply", async () => {
    const first = await svc(["migrate"], { env: { DATABASE_URL: db.url } });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toBe("");
    expect(first.stdout).toMatch(/^Database ready: PostgreSQL \(127\.0\.0\.1:5432\)\nApplied now: \w+(, \w+)+\.\nSchema: (\d+) migration\(s\), the latest \w+\.\n$/);
    const second = await svc(["migrate"], { env: { DATABASE_URL: db.url } });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toMatch(/^Database ready: PostgreSQL \(127\.0\.0\.1:5432\)\nAlready up to date: nothing to apply\.\nSchema: \d+ migration\(s\), the latest \w+\.\n$/);
  });

  it("says in one line why it cannot reach the database", async () => {
    const ran = await svc(["migrate"], { env: { DATABASE_URL: "postgres://postgres@127.0.0.1:9/none" } });
    expect(ran.code).not.toBe(0);
    expect(ran.stderr).toMatch(/Cannot open the database \(PostgreSQL \(127\.0\.0\.1:9\)\)/);
    expect(ran.stderr).toContain("Check DATABASE_URL and that PostgreSQL is running.");
  });
});
