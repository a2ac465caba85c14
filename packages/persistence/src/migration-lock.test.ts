import pg from "pg";
import { describe, expect, it } from "vitest";
import { migrationsRunAtOpen, openDataSource } from "./data-source.js";
import { MIGRATIONS } from "./migrations/index.js";
import { scratchDatabase } from "./scratch-database.js";

const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)("PostgreSQL (TEST_DATABASE_URL): processes started together on an empty database", () => {
  it("all open it: one migrates, the others wait and find it migrated", async () => {
    const db = await scratchDatabase(url as string);
    try {
      // Two API replicas and two workers: separate pools, as separate processes would have.
      const opened = await Promise.allSettled([1, 2, 3, 4].map((i) => openDataSource({ url: db.url, poolSize: 2, ...(i % 2 ? { queryTimeoutMs: 30_000 } : {}) })));
      const reasons = opened.flatMap((r) => (r.status === "rejected" ? [String(r.reason)] : []));
      // Each says what it applied itself: all of them in one, nothing in the others.
      const ran = opened.map((r) => (r.status === "fulfilled" ? migrationsRunAtOpen(r.value) : undefined));
      for (const r of opened) if (r.status === "fulfilled") await r.value.destroy();
      expect(reasons).toEqual([]);
      expect(ran.map((names) => names?.length).sort()).toEqual([0, 0, 0, MIGRATIONS.length]);
      expect(ran.find((names) => names?.length)).toEqual(MIGRATIONS.map((m) => m.name));
      const again = await openDataSource({ url: db.url, poolSize: 1 });
      try {
        expect(migrationsRunAtOpen(again)).toEqual([]);
      } finally {
        await again.destroy();
      }
      const c = new pg.Client({ connectionString: db.url });
      await c.connect();
      const { rows } = await c.query<{ n: string }>(`SELECT count(*) AS n FROM "migrations"`);
      await c.end();
      expect(Number(rows[0]?.n)).toBe(MIGRATIONS.length);
    } finally {
      await db.drop();
    }
  }, 120_000);
});
