import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
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

