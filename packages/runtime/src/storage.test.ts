import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createEmbeddedDatabaseApart, openStorage } from "./storage.js";

describe("createEmbeddedDatabaseApart (decision 0100)", () => {
  const dir = mkdtempSync(join(tmpdir(), "svc-apart-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("makes a first start's database in a process of its own, which this process then opens; nothing to do after", async () => {
    const settings = { SVC_DATA_DIR: join(dir, "data") };
    expect(await createEmbeddedDatabaseApart(settings, { execArgv: ["--import", "tsx"] })).toBe(true);
    expect(existsSync(join(dir, "data", "pgdata", "PG_VERSION"))).toBe(true);
    // Migrated there: this process finds every migration applied and none pending.
    const ds = await openStorage(settings);
    try {
      expect(await ds.showMigrations()).toBe(false);
      expect(((await ds.query(`SELECT count(*)::int AS n FROM "migrations"`)) as { n: number }[])[0]?.n).toBeGreaterThan(10);
    } finally {
      await ds.destroy();
    }
    expect(await createEmbeddedDatabaseApart(settings, { execArgv: ["--import", "tsx"] })).toBe(false);
  }, 120_000);

  it("leaves PostgreSQL and memory:// alone", async () => {
    expect(await createEmbeddedDatabaseApart({ DATABASE_URL: "postgres://nobody@127.0.0.1:1/none" })).toBe(false);
    expect(await createEmbeddedDatabaseApart({ SVC_DATA_DIR: "memory://" })).toBe(false);
  });
});
