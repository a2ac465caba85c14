// The local database — embedded PGlite under SVC_DATA_DIR, or PostgreSQL with DATABASE_URL —
// opened through the API's composition (@svc/server on @svc/runtime), so the CLI never wires repositories itself.
// Reads and reports go through the API app in-process (no socket), so every rule the server
// applies (validation, history cursors, CSV export, report filing) is the same here.
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { apiKeyHint, formatApiKey, hashApiKey, isWellFormedApiKey } from "@svc/server-ports";
import * as persistence from "@svc/persistence";
import type { SvcClient } from "@svc/sdk";
import { ConfigError, createLogger, loadConfig, loadStorageSettings, openJobQueue, openStorage, type Config, type StorageSettings } from "@svc/runtime";
import { ADMIN_ACCOUNT_ID, bootstrapAdmin, buildRuntime, createApp, drainHttpServer, startEmbeddedWorker, tuneHttpServer, type Runtime } from "@svc/server";
import { CliError, EXIT } from "./exit.js";
import type { Io } from "./io.js";

export { ADMIN_ACCOUNT_ID, bootstrapAdmin, createApp, startEmbeddedWorker, drainHttpServer, tuneHttpServer, type Config, type Runtime };

export interface LocalFlags {
  readonly dataDir?: string;
}

export interface Local {
  readonly runtime: Runtime;
  readonly config: Config;
  /** "PGlite at /abs/path/.svc" or "PostgreSQL". */
  readonly where: string;
  /** An SDK client for the API served in-process, with this CLI's own key on the admin account. */
  client(): Promise<SvcClient>;
  /** This CLI's key on the admin account (made on first use), for recording checks as its own. */
  cliKey(): Promise<{ readonly key: string; readonly id: string }>;
  /** Hash of this CLI's key, to mark it in `svc keys list`. */
  cliKeyHash(): string | null;
  /** Tells other svc processes where the server on this database listens. */
  noteServerUrl(url: string): void;
  close(): Promise<void>;
}

/** Settings as the server reads them (same variables), with the CLI's --data-dir on top. */
export function localConfig(io: Io, flags: LocalFlags, overrides: Record<string, string> = {}): Config {
  return configured(() => loadConfig({ ...flagged(io, flags), ...overrides }));
}

/** The environment with --data-dir over SVC_DATA_DIR. */
const flagged = (io: Io, flags: LocalFlags) => ({ ...io.env, ...(flags.dataDir !== undefined ? { SVC_DATA_DIR: flags.dataDir } : {}) });

function configured<T>(load: () => T): T {
  try {
    return load();
  } catch (e) {
    if (e instanceof ConfigError) throw new CliError(e.message, EXIT.usage, "Fix the environment variable named above.");
    throw e;
  }
}

type Storage = Pick<Config, keyof StorageSettings>;

export function describeStorage(config: Storage, cwd: string): string {
  if (config.DATABASE_URL) return `PostgreSQL (${new URL(config.DATABASE_URL).host})`;
  return config.SVC_DATA_DIR === "memory://" ? "PGlite in memory" : `PGlite at ${resolve(cwd, config.SVC_DATA_DIR)}`;
}

/**
 * PGlite is one process's database: @svc/persistence locks its directory when it opens it (every
 * svc process does, `npm start` included). Refused, this says so in one line, with where to go.
 */
export function dataDirInUse(e: unknown, shownDir: string, localOnly?: string): CliError | null {
  const c = persistence.dataDirInUseCause(e);
  if (!c) return null;
  const who = c.pid > 0 ? ` (pid ${c.pid})` : "";
  // A command that has no --url (it works on the database itself) is told to wait for the server, not to call it.
  const advice = localOnly ? `stop it first: ${localOnly}` : c.url ? `use --url ${c.url} --key <key> (or SVC_URL/SVC_API_KEY)` : "stop it or use --url http://127.0.0.1:8080 --key <key>";
  return new CliError(`the data directory ${shownDir} is in use by another svc process${who}${c.url ? ` serving ${c.url}` : ""}; ${advice}`, EXIT.unavailable);
}

/** The embedded database's directory as this CLI resolves it (null on PostgreSQL or in memory). */
const localDataDir = (config: Storage, io: Io): string | null => (config.DATABASE_URL || config.SVC_DATA_DIR === "memory://" ? null : resolve(io.cwd, config.SVC_DATA_DIR));

/** Opens the local database through `open`, saying in one line why it could not. */
async function opened<C extends Storage, T>(io: Io, config: C, localOnly: string | undefined, open: (config: C) => Promise<T>): Promise<T> {
  const dataDir = localDataDir(config, io);
  try {
    return await open(dataDir ? { ...config, SVC_DATA_DIR: dataDir } : config);
  } catch (e) {
    const inUse = dataDir ? dataDirInUse(e, dataDir, localOnly) : null;
    if (inUse) throw inUse;
    throw new CliError(`Cannot open the database (${describeStorage(config, io.cwd)}): ${e instanceof Error ? e.message : String(e)}`, EXIT.unavailable, config.DATABASE_URL ? "Check DATABASE_URL and that PostgreSQL is running." : "Check SVC_DATA_DIR (or --data-dir) points to a writable directory.");
  }
}

/**
 * Opens (and migrates) the local database without the services on it, and prepares its job queue
 * (pg-boss's schema and svc's queues on PostgreSQL): what `svc migrate` does, so it asks for nothing
 * but where the database is (no audit key on PostgreSQL).
 */
export async function openLocalSchema(io: Io, flags: LocalFlags, localOnly?: string): Promise<{ readonly dataSource: Awaited<ReturnType<typeof openStorage>>; readonly where: string; close(): Promise<void> }> {
  const config = configured(() => loadStorageSettings(flagged(io, flags)));
  const { dataSource, queue } = await opened(io, config, localOnly, async (c) => {
    const ds = await openStorage(c);
    try {
      return { dataSource: ds, queue: await openJobQueue(c, ds, { logger: createLogger("silent"), supervise: false }) };
    } catch (e) {
      await ds.destroy();
      throw e;
    }
  });
  return {
    dataSource,
    where: describeStorage(config, io.cwd),
    close: async () => {
      await queue.stop();
      await dataSource.destroy();
    },
  };
}

/** Opens (and migrates) the local database. Logging is off unless asked for: stdout is for results. */
export async function openLocal(io: Io, flags: LocalFlags, options: { logLevel?: string; localOnly?: string } = {}): Promise<Local> {
  const config = localConfig(io, flags, { LOG_LEVEL: options.logLevel ?? "silent" });
  const dataDir = localDataDir(config, io);
  const runtime: Runtime = await opened(io, config, options.localOnly, (c) => buildRuntime(c));
  // This CLI's key: kept beside the database (0600), registered on the admin account once.
  const keyFile = join(dataDir ?? resolve(io.cwd, config.SVC_DATA_DIR), "cli.key");
  const readKey = (): string | null => {
    try {
      const k = readFileSync(keyFile, "utf8").trim();
      return isWellFormedApiKey(k) ? k : null;
    } catch {
      return null;
    }
  };
  const cliKey = async (): Promise<{ key: string; id: string }> => {
    const s = runtime.services;
    // The admin account without bootstrap's random key: `svc serve` shows a key on its first start.
    if (!(await s.accounts.get(ADMIN_ACCOUNT_ID))) await s.accounts.create({ id: ADMIN_ACCOUNT_ID, name: "admin", plan: "operator", role: "operator" }, s.clock.now());
    let key = readKey();
    let known = key ? await s.keys.findByHash(hashApiKey(key)) : null;
    if (!key || known?.revoked_at) {
      // None yet, or revoked by `svc keys revoke`: a fresh one.
      key = formatApiKey(randomBytes(32));
      mkdirSync(join(keyFile, ".."), { recursive: true });
      writeFileSync(keyFile, `${key}\n`, { mode: 0o600 });
      known = null;
    }
    known ??= await s.keys.create({ account_id: ADMIN_ACCOUNT_ID, key_hash: hashApiKey(key), prefix: apiKeyHint(key) }, s.clock.now());
    return { key, id: known.id };
  };
  return {
    runtime,
    config,
    where: describeStorage(config, io.cwd),
    noteServerUrl: (url) => {
      if (dataDir) persistence.heldDataDirLock(join(dataDir, "pgdata"))?.note(url);
    },
    cliKeyHash: () => {
      const k = readKey();
      return k ? hashApiKey(k) : null;
    },
    cliKey,
    async client() {
      const { SvcClient } = await import("@svc/sdk");
      const { key } = await cliKey();
      const app = createApp(runtime.services);
      const inProcess: typeof fetch = async (input, init) => app.request(input instanceof Request ? input : String(input), init);
      return new SvcClient({ baseUrl: "http://svc.local", apiKey: key, fetch: inProcess, maxRetries: 0 });
    },
    close: () => runtime.close(),
  };
}
