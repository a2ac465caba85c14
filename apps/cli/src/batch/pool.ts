import { Worker } from "node:worker_threads";
import { CliError, EXIT } from "../exit.js";
import type { OutputFormat } from "./render.js";
import type { BatchScreener, Entry, Rendered } from "./run.js";

/** Running from the TypeScript sources (tests, tsx) rather than the compiled dist/. */
const FROM_SOURCES = import.meta.url.endsWith(".ts");

export interface WorkerRequest {
  readonly id: number;
  readonly entries: readonly Entry[];
  readonly format: OutputFormat;
  readonly concurrency: number;
}

export type WorkerReply = { readonly id: number; readonly results: Rendered[] } | { readonly id: number; readonly failure: string } | { readonly ready: true };

export interface WorkerPool extends BatchScreener {
  close(): Promise<void>;
}

/**
 * Screening on several threads (embedded mode only: the screener is CPU-bound and one thread
 * tops out at one core). Chunks go to the least busy worker; results come back rendered.
 */
export async function workerPool(size: number, format: OutputFormat, concurrency: number): Promise<WorkerPool> {
  const waiting = new Map<number, { ok: (r: Rendered[]) => void; fail: (e: Error) => void }>();
  const load = new Map<Worker, number>();
  let nextId = 0;
  const start = (): Promise<Worker> =>
    new Promise((ready, failed) => {
      const w = new Worker(new URL(FROM_SOURCES ? "./worker-entry.dev.mjs" : "./worker.js", import.meta.url));
      w.on("message", (m: WorkerReply) => {
        if ("ready" in m) return ready(w);
        const p = waiting.get(m.id);
        if (!p) return;
        waiting.delete(m.id);
        load.set(w, (load.get(w) ?? 1) - 1);
        if ("failure" in m) p.fail(new Error(m.failure));
        else p.ok(m.results);
      });
      w.once("error", (e) => {
        failed(e);
        for (const p of waiting.values()) p.fail(e);
        waiting.clear();
      });
      load.set(w, 0);
    });
  let workers: Worker[];
  try {
    workers = await Promise.all(Array.from({ length: size }, start));
  } catch (e) {
    throw new CliError(`The screening threads could not start: ${e instanceof Error ? e.message : String(e)}`, EXIT.internal, "Run again with --workers 1 to screen on the main thread.");
  }
  return {
    chunkSize: 100,
    screen(entries) {
      const id = nextId++;
      let w = workers[0] as Worker;
      for (const x of workers) if ((load.get(x) ?? 0) < (load.get(w) ?? 0)) w = x;
      load.set(w, (load.get(w) ?? 0) + 1);
      return new Promise<Rendered[]>((ok, fail) => {
        waiting.set(id, { ok, fail });
        w.postMessage({ id, entries, format, concurrency } satisfies WorkerRequest);
      });
    },
    async close() {
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}
