import type { DataSource } from "typeorm";
import { openDataSource } from "./data-source.js";
import { scratchDatabase, type ScratchDatabase } from "./scratch-database.js";

export type TestEngine = "pglite" | "postgres";

/**
 * One migrated database per engine, reused by every test of a file (migrating a new one takes
 * seconds): embedded PGlite in memory, or a scratch database named `<prefix>_<random>` on the
 * server of TEST_DATABASE_URL. Each test starts from `empty`, which clears the tables it names.
 */
export class ReusableTestDatabases {
  private readonly open = new Map<TestEngine, Promise<{ readonly ds: DataSource; readonly scratch: ScratchDatabase | null }>>();

  constructor(private readonly prefix: string) {}

  /** The engine's database, opened and migrated on first use (call it in a `beforeAll` with a long timeout). */
  async get(engine: TestEngine): Promise<DataSource> {
    let db = this.open.get(engine);
    if (!db) {
      db = (async () => {
        const scratch = engine === "postgres" ? await scratchDatabase(requiredUrl(), this.prefix) : null;
        return { ds: await openDataSource(scratch ? { url: scratch.url } : { dataDir: "memory://" }), scratch };
      })();
      this.open.set(engine, db);
    }
    return (await db).ds;
  }

  /** The engine's database with every table whose name passes `which` emptied (TRUNCATE … CASCADE). */
  async empty(engine: TestEngine, which: (table: string) => boolean): Promise<DataSource> {
    const ds = await this.get(engine);
    const tables = ((await ds.query(`SELECT tablename FROM pg_tables WHERE schemaname = current_schema()`)) as { tablename: string }[]).map((t) => t.tablename).filter(which);
    if (tables.length > 0) await ds.query(`TRUNCATE ${tables.map((t) => `"${t}"`).join(", ")} CASCADE`);
    return ds;
  }

  /** Closes every database (and drops the scratch ones). */
  async close(): Promise<void> {
    const all = [...this.open.values()];
    this.open.clear();
    for (const db of all) {
      const { ds, scratch } = await db;
      if (ds.isInitialized) await ds.destroy();
      await scratch?.drop();
    }
  }
}

function requiredUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error("TEST_DATABASE_URL is needed for the postgres engine");
  return url;
}

/** Every row of every table of the current schema, as text, table by table (privacy checks in tests). */
export async function everyRowAsText(ds: DataSource): Promise<string> {
  const tables = ((await ds.query(`SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename`)) as { tablename: string }[]).map((t) => t.tablename);
  const parts: string[] = [];
  for (const t of tables) {
    const [row] = (await ds.query(`SELECT coalesce(json_agg(x)::text, '[]') AS rows FROM "${t}" x`)) as { rows: string }[];
    parts.push(`${t}: ${row?.rows ?? "[]"}`);
  }
  return parts.join("\n");
}
