import type { CheckFilters } from "@svc/core";
import type { DataSource } from "typeorm";
import { CONNECT_TIMEOUT_MS, serverConnectionOf } from "../data-source.js";
import type { ExportThread } from "./export-thread.js";

/**
 * The audit export made by PostgreSQL (decisions 0085, 0112): the lines it keeps for each check,
 * joined in keyset-ordered chunks (csv-export-lines.ts), read by a thread of the DataSource's own
 * (export-thread.ts, decision 0113). Both are loaded on the first export: a process on embedded
 * PGlite never needs them, nor `pg`.
 */
export const CHUNK_ROWS = 10_000;

/** Connections of the export's thread: one per export, two while it reads ahead. */
const EXPORT_CONNECTIONS = 4;
/** Idle connections of the export's thread are closed after this long. */
const EXPORT_IDLE_MS = 10_000;

const threads = new WeakMap<DataSource, Promise<ExportThread>>();

/** The DataSource's export thread, made on first use and ended when the DataSource is destroyed. */
function threadOf(ds: DataSource, server: { readonly url: string; readonly queryTimeoutMs?: number }): Promise<ExportThread> {
  let thread = threads.get(ds);
  if (!thread) {
    const made = import("./export-thread.js").then(({ ExportThread }) => new ExportThread({ ...server, connections: EXPORT_CONNECTIONS, applicationName: "svc-export", connectTimeoutMs: CONNECT_TIMEOUT_MS, idleTimeoutMs: EXPORT_IDLE_MS }));
    const destroy = ds.destroy.bind(ds);
    ds.destroy = async () => {
      threads.delete(ds);
      ds.destroy = destroy;
      await (await made.catch(() => null))?.close();
      return destroy();
    };
    threads.set(ds, (thread = made));
  }
  return thread;
}

/** The export's CSV bytes as PostgreSQL keeps them, or null when `ds` is not a server-mode DataSource of createDataSource. */
export function copyExportCsv(ds: DataSource, accountId: string, filters: CheckFilters = {}, chunkRows = CHUNK_ROWS): AsyncGenerator<Buffer> | null {
  const server = serverConnectionOf(ds);
  if (!server) return null;
  return (async function* copied(): AsyncGenerator<Buffer> {
    const [{ whereOf }, thread] = await Promise.all([import("./csv-export-lines.js"), threadOf(ds, server)]);
    yield* thread.read(whereOf(accountId, filters), chunkRows);
  })();
}
