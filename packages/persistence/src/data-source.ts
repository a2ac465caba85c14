// First: the other databases' TypeORM drivers are left out before TypeORM loads (decision 0105).
import "./typeorm-drivers.js";
import { existsSync } from "node:fs";
import { mkdir, readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { PGlite, type PGliteOptions } from "@electric-sql/pglite";
import { DataSource, type LoggerOptions } from "typeorm";
import { ENTITIES } from "./entities/index.js";
import { MIGRATIONS } from "./migrations/index.js";
import { LOCK_FILE, lockDataDir } from "./data-dir-lock.js";
import { DEFAULT_TEMPLATE_CACHE_DIR, discardTemplate, freshClusterImage } from "./pglite-template.js";
import { pgliteDriver, type PglitePool } from "./pglite-driver.js";

export interface DataSourceConfig {
  /** PostgreSQL connection string (`DATABASE_URL`): server mode. */
  readonly url?: string;
  /** Embedded PGlite data directory when no `url`; in memory when absent or `memory://`. */
  readonly dataDir?: string;
  /** PostgreSQL connections per process (server mode); default 10. */
  readonly poolSize?: number;
  /**
   * Server mode: a query with no answer for this long fails (a network that stopped answering
   * must not hold a request forever); unset: no limit. Connecting gives up after CONNECT_TIMEOUT_MS.
   */
  readonly queryTimeoutMs?: number;
  readonly logging?: LoggerOptions;
  /**
   * Embedded mode: where the initialised-cluster image a new database starts from is kept
   * (pglite-template.ts); default `~/.cache/svc`; null: made in this process, not stored.
   */
  readonly templateCacheDir?: string | null;
}

/** Server mode: how long opening a connection may take before the query fails (retryable). */
export const CONNECT_TIMEOUT_MS = 5_000;

/**
 * A TypeORM DataSource (not yet initialised) on PostgreSQL when `url` is given, else on embedded
 * PGlite. Both run the same migrations on `initialize()`. Extensions are never installed:
 * `gen_random_uuid()` is core since PostgreSQL 13 and PGlite ships no uuid-ossp.
 */
export function createDataSource(config: DataSourceConfig = {}, o: { readonly migrationsRun?: boolean } = {}): DataSource {
  const common = {
    type: "postgres" as const,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsRun: o.migrationsRun ?? true,
    synchronize: false,
    installExtensions: false,
    uuidExtension: "pgcrypto" as const,
    logging: config.logging ?? false,
  };
  if (config.url) {
    // A pool that outlives the database: a dead connection is dropped on its error and a new one
    // is opened on the next query; connecting and (optionally) querying are bounded in time, and
    // TCP keep-alive notices a peer that vanished without a FIN.
    const extra = { keepAlive: true, keepAliveInitialDelayMillis: 10_000 };
    // Migrations may run longer than a query timeout allows: openDataSource runs them first on a pool without one.
    return new DataSource({ ...common, migrationsRun: common.migrationsRun && !config.queryTimeoutMs, url: config.url, poolSize: config.poolSize ?? 10, connectTimeoutMS: CONNECT_TIMEOUT_MS, extra });
  }
  const dataDir = config.dataDir === undefined || config.dataDir === "memory://" ? undefined : config.dataDir;
  const startParams = [...PGlite.defaultStartParams, ...EMBEDDED_SETTINGS];
  const cacheDir = config.templateCacheDir === undefined ? DEFAULT_TEMPLATE_CACHE_DIR : config.templateCacheDir;
  let lock: { release(): void } | undefined;
  const open = async (): Promise<PGlite> => {
    compileWasmWithBaselineOnly();
    if (dataDir === undefined) return createCluster({ startParams }, cacheDir);
    // PGlite creates the directory itself but not its parents (SVC_DATA_DIR may be nested).
    await mkdir(dataDir, { recursive: true });
    // One process per directory (data-dir-lock.ts): taken before PGlite reads a byte, released on
    // close (a restart of the pool keeps it).
    lock ??= lockDataDir(dataDir);
    try {
      if (existsSync(join(dataDir, "PG_VERSION"))) return await PGlite.create({ dataDir, startParams });
      return await createCluster({ dataDir, startParams }, cacheDir, dataDir);
    } catch (e) {
      release();
      throw e;
    }
  };
  const release = (): void => {
    lock?.release();
    lock = undefined;
  };
  return new DataSource({ ...common, driver: pgliteDriver(open, release) });
}

/**
 * A new embedded database: unpacked from the initialised-cluster image (pglite-template.ts), or made
 * by initdb when there is no image or PGlite refuses it (the image is then discarded and `dataDir`
 * emptied of what the attempt wrote, the lock file aside).
 */
async function createCluster(options: PGliteOptions, cacheDir: string | null, dataDir?: string): Promise<PGlite> {
  const image = await freshClusterImage(cacheDir).catch(() => null);
  if (image === null) return PGlite.create(options);
  try {
    return await PGlite.create({ ...options, loadDataDir: image });
  } catch {
    discardTemplate(cacheDir);
    if (dataDir !== undefined) {
      for (const name of await readdir(dataDir)) if (name !== LOCK_FILE) await rm(join(dataDir, name), { recursive: true, force: true });
    }
    return PGlite.create(options);
  }
}

/**
 * PostgreSQL settings of the embedded database. initdb sizes a server: 128 MB of shared buffers
 * and 100 connection slots, all of it resident in the one process that embeds PGlite (about
 * 160 MB more than these). One session and a small database need far less
 * (docs/decisions/0061-embedded-database-memory.md). PGlite touches every shared buffer when it
 * starts, so each MB of them is a resident MB of the process: 4 MB (512 pages) since decision 0092,
 * the operating system's page cache holding the rest of the files.
 */
export const EMBEDDED_SETTINGS: readonly string[] = ["-c", "shared_buffers=4MB", "-c", "max_connections=10"];

/**
 * PGlite's PostgreSQL is 9 MB of WebAssembly. V8 compiles all of it with its baseline compiler
 * (Liftoff) and then recompiles the functions that get hot with its optimising one (TurboFan), on
 * background threads whose memory stays with the process: about 50–70 MB more resident, and twice
 * the CPU to open the database, for statements that measured no faster
 * (docs/decisions/0080-embedded-database-baseline-wasm.md). V8 reads the flag when it compiles a
 * module, so it is set before the first PGlite is created; the only other WebAssembly in the
 * process is undici's HTTP parser for outgoing `fetch` calls.
 */
function compileWasmWithBaselineOnly(): void {
  setFlagsFromString("--liftoff-only");
}

/** The migrations openDataSource ran when it opened a data source (names, in order). */
const ranAtOpen = new WeakMap<DataSource, readonly string[]>();

/**
 * The migrations that opening `ds` applied (names, in order): empty when its schema was already
 * current or another process migrated it; undefined for a data source openDataSource did not open.
 */
export function migrationsRunAtOpen(ds: DataSource): readonly string[] | undefined {
  return ranAtOpen.get(ds);
}

/** `createDataSource` and `initialize()`, migrated. */
export async function openDataSource(config: DataSourceConfig = {}): Promise<DataSource> {
  if (!config.url) return openEmbedded(config);
  const ran = await migratePostgres(config);
  const ds = await createDataSource(config, { migrationsRun: false }).initialize();
  ranAtOpen.set(ds, ran);
  if (config.queryTimeoutMs) {
    const pool = (ds.driver as unknown as { master: { on(event: "acquire", f: (client: PgClientLike) => void): void } }).master;
    pool.on("acquire", (client) => boundQueries(client, config.queryTimeoutMs as number));
  }
  return ds;
}

/** The advisory lock every process takes to migrate a PostgreSQL database (any fixed number). */
const MIGRATION_LOCK = 0x5_3c_00_01;

/**
 * Migrates a PostgreSQL database with no query timeout (a long index build must not fail
 * start-up), one process at a time: API replicas and workers started together on an empty
 * database would otherwise each run the first migration, and all but one fail on PostgreSQL's
 * catalog. The lock is the session's: one connection (pool of 1) takes it, migrates, and releases it.
 */
async function migratePostgres(config: DataSourceConfig): Promise<string[]> {
  const { queryTimeoutMs: _unbounded, ...migrating } = config;
  const ds = await createDataSource({ ...migrating, poolSize: 1 }, { migrationsRun: false }).initialize();
  try {
    await ds.query(`SELECT pg_advisory_lock($1)`, [MIGRATION_LOCK]);
    try {
      return (await ds.runMigrations()).map((m) => m.name);
    } finally {
      await ds.query(`SELECT pg_advisory_unlock($1)`, [MIGRATION_LOCK]);
    }
  } finally {
    await ds.destroy();
  }
}

/**
 * Creating the embedded database and migrating it leave hundreds of MB behind (buffers around
 * the PGlite instance that did it) that only full garbage collections free, which an idle
 * process may not run for a long time. So when migrations ran, the database is closed and opened
 * again on its files (docs/decisions/0081-embedded-database-reopened-after-migrating.md). An
 * in-memory database (`memory://`) has nowhere to be reopened from and keeps its instance.
 */
async function openEmbedded(config: DataSourceConfig): Promise<DataSource> {
  const ds = await createDataSource(config, { migrationsRun: false }).initialize();
  try {
    const ran = await ds.runMigrations();
    if (ran.length > 0 && config.dataDir !== undefined && config.dataDir !== "memory://") {
      await (ds.driver as unknown as { master: PglitePool }).master.restart();
    }
    ranAtOpen.set(ds, ran.map((m) => m.name));
    return ds;
  } catch (e) {
    await ds.destroy().catch(() => undefined);
    throw e;
  }
}

interface PgClientLike {
  query(...args: unknown[]): unknown;
  connection?: { stream?: { destroy(err?: Error): void } };
}
/** Each bounded client's bound (ms). */
const bounded = new WeakMap<PgClientLike, number>();

/** What a bounded query's connection is closed with when its bound passes. */
const closeOnTimeout = (client: PgClientLike): void => client.connection?.stream?.destroy(new Error("Query read timeout"));

/**
 * For a caller that reads a stream to its end itself (an export chunk's COPY): the bound of the
 * client's pool (the API's), armed as for a query. Returns what disarms it; does nothing on a
 * client of an unbounded pool.
 */
export function armQueryBound(client: object): () => void {
  const ms = bounded.get(client as PgClientLike);
  if (ms === undefined) return () => {};
  const timer = setTimeout(() => closeOnTimeout(client as PgClientLike), ms);
  return () => clearTimeout(timer);
}

/**
 * A query with no answer within `ms` closes its connection. pg's own `query_timeout` is not used:
 * it fails the query but keeps the connection, and a ROLLBACK queued behind the unanswered
 * statement times out unsent, so the connection goes back to the pool still inside the failed
 * transaction and the next user's COMMIT commits its half. Closing the socket fails every query
 * on it, the pool drops the client, and the server rolls the transaction back. Streams are left
 * alone: they end when their reader stops (one that reads its stream to the end bounds it itself,
 * with `armQueryBound`).
 */
function boundQueries(client: PgClientLike, ms: number): void {
  if (bounded.has(client)) return;
  bounded.set(client, ms);
  const query = client.query.bind(client);
  client.query = (...args: unknown[]) => {
    const first = args[0] as { submit?: unknown } | undefined;
    if (typeof args.at(-1) === "function" || (first && typeof first === "object" && typeof first.submit === "function")) return query(...args);
    const timer = setTimeout(() => closeOnTimeout(client), ms);
    const result = query(...args) as Promise<unknown>;
    return result.finally(() => clearTimeout(timer));
  };
}
