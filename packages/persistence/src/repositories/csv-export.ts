import type { CheckFilters } from "@svc/core";
import type { DataSource } from "typeorm";
import { PglitePool } from "../pglite-driver.js";
import type { PoolClient } from "./csv-export-lines.js";

/**
 * The audit export made by PostgreSQL (decisions 0085, 0112): the lines it keeps for each check,
 * joined in keyset-ordered chunks: see csv-export-lines.ts, imported on the first export (it
 * loads `pg`, which a process on embedded PGlite never needs).
 */
export const CHUNK_ROWS = 10_000;

/** The DataSource's `pg.Pool`, or null (embedded PGlite, or a transaction-scoped stand-in without a pool). */
function pgPoolOf(ds: DataSource): { connect(): Promise<PoolClient> } | null {
  const master = (ds as { driver?: { master?: unknown } }).driver?.master;
  if (master === undefined || master instanceof PglitePool) return null;
  return master as { connect(): Promise<PoolClient> };
}

/** The export's CSV bytes as PostgreSQL keeps them, or null when `ds` is not on PostgreSQL. */
export function copyExportCsv(ds: DataSource, accountId: string, filters: CheckFilters = {}, chunkRows = CHUNK_ROWS): AsyncGenerator<Buffer> | null {
  const pool = pgPoolOf(ds);
  if (!pool) return null;
  return (async function* copied(): AsyncGenerator<Buffer> {
    const { chunks, whereOf } = await import("./csv-export-lines.js");
    yield* chunks(pool, whereOf(accountId, filters), chunkRows);
  })();
}
