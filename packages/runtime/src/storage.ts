import { spawn } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { extname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { openDataSource } from "@svc/persistence";
import type { DataSource } from "typeorm";

/** Where a process keeps its data: PostgreSQL with DATABASE_URL, else embedded PGlite under SVC_DATA_DIR. */
export interface StorageSettings {
  readonly DATABASE_URL?: string | undefined;
  /** Default `./.svc`; unused with DATABASE_URL. */
  readonly SVC_DATA_DIR?: string | undefined;
}

export interface StorageOptions {
  /** PostgreSQL: a statement unanswered this long fails (the API answers 503 instead of holding the request). */
  readonly queryTimeoutMs?: number;
  /** PostgreSQL: connections in the pool. */
  readonly poolSize?: number;
}

/** The embedded database's directory (`<SVC_DATA_DIR>/pgdata`, or `memory://`); null on PostgreSQL. */
export function embeddedDataDir(s: StorageSettings): string | null {
  if (s.DATABASE_URL) return null;
  const dir = s.SVC_DATA_DIR ?? "./.svc";
  return dir === "memory://" ? "memory://" : resolve(dir, "pgdata");
}

/** For logs and the start-up line: `postgresql` or `pglite:<SVC_DATA_DIR>`. */
export function storageLabel(s: StorageSettings): string {
  return s.DATABASE_URL ? "postgresql" : `pglite:${s.SVC_DATA_DIR ?? "./.svc"}`;
}

/**
 * Opens (and migrates) the one database of a process. Every svc process opens its storage here,
 * so the API, the worker, the CLI and the bots agree on where the data is.
 */
export async function openStorage(s: StorageSettings, o: StorageOptions = {}): Promise<DataSource> {
  if (s.DATABASE_URL) {
    return openDataSource({ url: s.DATABASE_URL, ...(o.queryTimeoutMs !== undefined ? { queryTimeoutMs: o.queryTimeoutMs } : {}), ...(o.poolSize !== undefined ? { poolSize: o.poolSize } : {}) });
  }
  const dataDir = embeddedDataDir(s) as string;
  if (dataDir !== "memory://") mkdirSync(dataDir, { recursive: true });
  return openDataSource({ dataDir });
}

/**
 * Creates the embedded database of a first start in a short-lived process of its own, when there
 * is none yet; afterwards the caller opens it as it would on any later start. Creating and migrating
 * a database in PGlite leaves tens of MB of freed memory behind in the process that did it (glibc
 * keeps it in pieces, no threshold returns it): an API that created its database idled at ~190 MB,
 * one that opened it at ~150 (decision 0100). Resolves true when a database was made this way;
 * false when there was nothing to make (PostgreSQL, `memory://`, a database already there) or the
 * process failed, in which case the caller's own opening creates it, or reports why it cannot.
 */
export async function createEmbeddedDatabaseApart(s: StorageSettings, o: { readonly execArgv?: readonly string[] } = {}): Promise<boolean> {
  const dataDir = embeddedDataDir(s);
  if (dataDir === null || dataDir === "memory://" || existsSync(join(dataDir, "PG_VERSION"))) return false;
  // The sibling module as this one runs: compiled (.js) in production, the source under tsx.
  const here = fileURLToPath(import.meta.url);
  const script = join(here, "..", `create-database${extname(here)}`);
  if (!existsSync(script)) return false;
  // This process's flags (a loader such as tsx's under development), not a debugger's port.
  const execArgv = o.execArgv ?? process.execArgv.filter((a) => !a.startsWith("--inspect"));
  const child = spawn(process.execPath, [...execArgv, script, s.SVC_DATA_DIR ?? "./.svc"], { stdio: "ignore" });
  const code = await new Promise<number | null>((done) => {
    child.once("error", () => done(null));
    child.once("exit", (c) => done(c));
  });
  return code === 0;
}
