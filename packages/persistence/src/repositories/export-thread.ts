import { once } from "node:events";
import { Worker } from "node:worker_threads";

/**
 * The audit export's reads on PostgreSQL, done by a thread of their own (decision 0113).
 *
 * An export moves megabytes through the process: socket reads, the protocol parser's growing
 * buffer, the chunk's text, its UTF-8 bytes. On the main thread that volume of short-lived
 * external memory set off most of the API's full garbage collections while exports ran, and every
 * check in flight waited through them. The thread (export-reader.worker.ts) keeps its own small
 * pool and heap; each chunk's bytes come back by transfer (no copy) and go to the response as they
 * are. Flow control is one chunk: the thread posts a chunk and reads the next one ahead, then waits
 * until the main thread takes the one it has, so memory stays at two chunks per export as before.
 *
 * Started on the first export, not kept alive by itself (`unref`), ended with its DataSource.
 */
export interface ExportReaderConfig {
  readonly url: string;
  /** Connections the thread may hold at once (each export uses one, two while reading ahead). */
  readonly connections: number;
  readonly applicationName: string;
  readonly connectTimeoutMs: number;
  readonly idleTimeoutMs: number;
  readonly queryTimeoutMs?: number;
}

export type ExportRequest =
  | { readonly kind: "start"; readonly id: number; readonly where: string; readonly chunkRows: number }
  | { readonly kind: "more" | "stop"; readonly id: number }
  | { readonly kind: "close" };

export type ExportReply =
  | { readonly id: number; readonly kind: "chunk"; readonly bytes: ArrayBuffer }
  | { readonly id: number; readonly kind: "end" }
  | { readonly id: number; readonly kind: "error"; readonly error: { readonly message: string; readonly name: string; readonly code?: string } };

/** Running from the TypeScript sources (tests, tsx) rather than the compiled dist/. */
const FROM_SOURCES = import.meta.url.endsWith(".ts");

/** How long `close` waits for the thread to close its connections before stopping it. */
const CLOSE_WAIT_MS = 5_000;

/** One export's replies, in order, waited for one at a time. */
class Inbox {
  private readonly queue: ExportReply[] = [];
  private waiting: ((m: ExportReply) => void) | null = null;

  push(m: ExportReply): void {
    const w = this.waiting;
    this.waiting = null;
    if (w) w(m);
    else this.queue.push(m);
  }

  next(): Promise<ExportReply> {
    const m = this.queue.shift();
    return m ? Promise.resolve(m) : new Promise((r) => (this.waiting = r));
  }
}

/** The error the thread described, with the code that tells an unreachable database (unavailable.ts) from a bug. */
function rebuilt(e: { readonly message: string; readonly name: string; readonly code?: string }): Error {
  const err = new Error(e.message) as Error & { code?: string };
  err.name = e.name;
  if (e.code !== undefined) err.code = e.code;
  return err;
}

export class ExportThread {
  private worker: Worker | null = null;
  private readonly inboxes = new Map<number, Inbox>();
  private nextId = 0;

  constructor(private readonly config: ExportReaderConfig) {}

  private started(): Worker {
    if (this.worker) return this.worker;
    const w = new Worker(new URL(FROM_SOURCES ? "./export-reader.worker.dev.mjs" : "./export-reader.worker.js", import.meta.url), { workerData: this.config });
    w.unref();
    w.on("message", (m: ExportReply) => this.inboxes.get(m.id)?.push(m));
    // A thread that fails or stops fails the exports it was reading; the next export starts another.
    const lost = (e: Error): void => {
      if (this.worker === w) this.worker = null;
      for (const [id, inbox] of this.inboxes) inbox.push({ id, kind: "error", error: { message: e.message, name: e.name } });
    };
    w.on("error", lost);
    w.on("exit", (code) => lost(new Error(`the export's reading thread stopped (exit code ${code})`)));
    this.worker = w;
    return w;
  }

  /** The CSV bytes of the export rows `where` selects (csv-export-lines.ts `chunks`), read by the thread. */
  async *read(where: string, chunkRows: number): AsyncGenerator<Buffer> {
    const w = this.started();
    const id = this.nextId++;
    const inbox = new Inbox();
    this.inboxes.set(id, inbox);
    let finished = false;
    try {
      w.postMessage({ kind: "start", id, where, chunkRows } satisfies ExportRequest);
      for (;;) {
        const m = await inbox.next();
        if (m.kind === "end") {
          finished = true;
          return;
        }
        if (m.kind === "error") {
          finished = true;
          throw rebuilt(m.error);
        }
        yield Buffer.from(m.bytes);
        w.postMessage({ kind: "more", id } satisfies ExportRequest);
      }
    } finally {
      this.inboxes.delete(id);
      // A reader that stopped early (the client went away): the thread stops reading and gives its connections back.
      if (!finished) w.postMessage({ kind: "stop", id } satisfies ExportRequest);
    }
  }

  /** Ends the thread after it has closed its connections (stopped outright if that takes too long). */
  async close(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    if (!w) return;
    const exited = once(w, "exit");
    w.postMessage({ kind: "close" } satisfies ExportRequest);
    const timer = setTimeout(() => void w.terminate(), CLOSE_WAIT_MS);
    try {
      await exited;
    } finally {
      clearTimeout(timer);
    }
  }
}
