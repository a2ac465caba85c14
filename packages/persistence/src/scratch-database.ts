import { randomBytes } from "node:crypto";

export interface ScratchDatabase {
  /** The new database's URL: the server of `adminUrl`, its own database name. */
  readonly url: string;
  readonly name: string;
  /** Drops it, closing whatever is still connected. */
  drop(): Promise<void>;
}

/**
 * A new, empty database named `<prefix>_<random>` on the PostgreSQL server of `adminUrl`, for a
 * test file or a benchmark run that must not share state; the caller drops it.
 */
export async function scratchDatabase(adminUrl: string, prefix = "svc_test"): Promise<ScratchDatabase> {
  if (!/^[a-z][a-z0-9_]*$/.test(prefix)) throw new RangeError(`database prefix must be a lower-case identifier: ${JSON.stringify(prefix)}`);
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  // `pg` is imported here, not at the top: @svc/persistence is loaded by every process, and the
  // embedded default never needs a PostgreSQL client (docs/decisions/0091).
  const { default: pg } = await import("pg");
  const admin = async (sql: string): Promise<void> => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return { url: u.toString(), name, drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
