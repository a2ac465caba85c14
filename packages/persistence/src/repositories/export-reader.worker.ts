// The audit export's reading thread on PostgreSQL (export-thread.ts starts it; decision 0113).
// It holds a small pool of its own connections, reads each export's chunks of stored lines
// (csv-export-lines.ts) and hands every chunk's bytes to the main thread by transfer, so the
// socket reads, the protocol's buffers and the chunk's text never live on the main thread's heap.
import { parentPort, workerData } from "node:worker_threads";
import pg from "pg";
import { boundQueries } from "../query-bound.js";
import { chunks } from "./csv-export-lines.js";
import type { ExportReaderConfig, ExportReply, ExportRequest } from "./export-thread.js";

const port = parentPort;
if (!port) throw new Error("export-reader.worker runs as a worker thread");
const config = workerData as ExportReaderConfig;

const pool = new pg.Pool({
  connectionString: config.url,
  max: config.connections,
  application_name: config.applicationName,
  connectionTimeoutMillis: config.connectTimeoutMs,
  // Connections an export no longer needs are closed soon: exports are rare next to checks.
  idleTimeoutMillis: config.idleTimeoutMs,
  keepAlive: true,
  keepAliveInitialDelayMillis: 10_000,
});
// A network that stopped answering fails the chunk's statement (and closes its connection)
// instead of holding the export forever, as on the DataSource's own pool.
const queryTimeoutMs = config.queryTimeoutMs;
if (queryTimeoutMs) pool.on("acquire", (client) => boundQueries(client as unknown as Parameters<typeof boundQueries>[0], queryTimeoutMs));
// An idle connection that breaks (the server restarted) is dropped by the pool; the next export
// opens a new one. Without a listener the 'error' would end the thread.
pool.on("error", () => {});

interface Running {
  /** Chunks the main thread may still take before this export waits. */
  credit: number;
  stopped: boolean;
  wake: (() => void) | null;
}
const running = new Map<number, Running>();

/** An ArrayBuffer holding exactly `b`'s bytes that can be transferred (a pooled Buffer shares its slab). */
function own(b: Buffer): ArrayBuffer {
  if (b.byteOffset === 0 && b.byteLength === b.buffer.byteLength && b.buffer instanceof ArrayBuffer) return b.buffer;
  const copy = new Uint8Array(b.byteLength);
  copy.set(b);
  return copy.buffer;
}

async function run(id: number, where: string, chunkRows: number): Promise<void> {
  const r: Running = { credit: 1, stopped: false, wake: null };
  running.set(id, r);
  try {
    for await (const b of chunks(pool, where, chunkRows)) {
      if (r.stopped) return;
      const bytes = own(b);
      port!.postMessage({ id, kind: "chunk", bytes } satisfies ExportReply, [bytes]);
      r.credit--;
      while (r.credit <= 0 && !r.stopped) await new Promise<void>((wake) => (r.wake = wake));
      if (r.stopped) return; // leaving the loop lets the chunk read ahead finish and its connection go back
    }
    port!.postMessage({ id, kind: "end" } satisfies ExportReply);
  } catch (e) {
    const err = e as { message?: unknown; code?: unknown; name?: unknown };
    port!.postMessage({
      id,
      kind: "error",
      error: { message: String(err?.message ?? e), name: typeof err?.name === "string" ? err.name : "Error", ...(typeof err?.code === "string" ? { code: err.code } : {}) },
    } satisfies ExportReply);
  } finally {
    running.delete(id);
  }
}

port.on("message", (m: ExportRequest) => {
  if (m.kind === "start") {
    void run(m.id, m.where, m.chunkRows);
    return;
  }
  if (m.kind === "close") {
    for (const r of running.values()) {
      r.stopped = true;
      r.wake?.();
    }
    void pool.end().finally(() => port.close());
    return;
  }
  const r = running.get(m.id);
  if (!r) return;
  if (m.kind === "more") r.credit++;
  else r.stopped = true;
  const wake = r.wake;
  r.wake = null;
  wake?.();
});
