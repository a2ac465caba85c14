import { randomBytes } from "node:crypto";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { openDataSource } from "./data-source.js";
import { MIGRATIONS } from "./migrations/index.js";

const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)("PostgreSQL (TEST_DATABASE_URL): processes started together on an empty database", () => {
  const admin = async (sql: string): Promise<void> => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };

  it("all open it: one migrates, the others wait and find it migrated", async () => {
    const database = `svc_test_${randomBytes(6).toString("hex")}`;
    await admin(`CREATE DATABASE "${database}"`);
    try {
      const u = new URL(url as string);
      u.pathname = `/${database}`;
      // Two API replicas and two workers: separate pools, as separate processes would have.
      const opened = await Promise.allSettled([1, 2, 3, 4].map((i) => openDataSource({ url: u.toString(), poolSize: 2, ...(i % 2 ? { queryTimeoutMs: 30_000 } : {}) })));
      const reasons = opened.flatMap((r) => (r.status === "rejected" ? [String(r.reason)] : []));
      for (const r of opened) if (r.status === "fulfilled") await r.value.destroy();
      expect(reasons).toEqual([]);
      const c = new pg.Client({ connectionString: u.toString() });
      await c.connect();
      const { rows } = await c.query<{ n: string }>(`SELECT count(*) AS n FROM "migrations"`);
      await c.end();
      expect(Number(rows[0]?.n)).toBe(MIGRATIONS.length);
    } finally {
      await admin(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    }
  }, 120_000);
});
