// A `svc batch` worker thread: screens chunks with its own in-process screener and renders the
// results (JSON line or CSV record), so the main thread only reads, writes and counts.
import { parentPort } from "node:worker_threads";
import { renderer } from "./render.js";
import type { WorkerReply, WorkerRequest } from "./pool.js";

const port = parentPort;
if (!port) throw new Error("worker.ts runs as a worker thread");

const core = await import("@svc/core");
const screener = core.createScreener();

port.on("message", (req: WorkerRequest) => {
  const render = renderer(req.format, core.leadSignal);
  core
    .screenBatch(req.entries.map((e) => e.input), screener.deps, { concurrency: req.concurrency })
    .then((items) => {
      const results = items.map((i) => (i.status === "ok" ? { ok: true as const, level: i.result.verdict.risk_level, text: render((req.entries[i.index] as { line: number }).line, i.result.verdict) } : { ok: false as const, error: { code: i.error.code, message: i.error.message } }));
      port.postMessage({ id: req.id, results } satisfies WorkerReply);
    })
    .catch((e: unknown) => port.postMessage({ id: req.id, failure: e instanceof Error ? e.message : String(e) } satisfies WorkerReply));
});
port.postMessage({ ready: true });
