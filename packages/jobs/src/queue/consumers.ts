import type { JobBatchHandler, QueuedJob, WorkOptions } from "@svc/server-ports";
import type { LogSink } from "../log.js";

/** What a queue technology provides to the shared consumer loop. */
export interface QueueBackend {
  fetch(queue: string, limit: number): Promise<QueuedJob[]>;
  complete(queue: string, ids: readonly string[]): Promise<void>;
  fail(queue: string, ids: readonly string[], error: unknown): Promise<void>;
  /** Hands unfinished jobs back at a shutdown that ran out of time. */
  release(queue: string, ids: readonly string[]): Promise<void>;
  /**
   * Milliseconds until the queue's next waiting job is due (≤ 0: due now), or null when none
   * waits. Only a backend whose database no other process writes provides it: there, every job
   * sent wakes its consumers, so an idle loop sleeps until this time instead of polling.
   */
  nextDueMs?(queue: string): Promise<number | null>;
}

/** How long an idle loop of a backend that knows its next due job sleeps when none waits (it is woken by sends). */
export const IDLE_SLEEP_MS = 30_000;

interface Loop {
  readonly queue: string;
  current: { ids: string[] } | null;
  woken: boolean;
  wakeUp: (() => void) | null;
  done: Promise<void>;
}

/**
 * Fetch → handle → complete/fail loops, `concurrency` of them per queue. An idle loop sleeps
 * until woken (a job was sent) or its poll interval passes. Used by every JobQueue adapter.
 */
export class Consumers {
  private running = true;
  private readonly loops: Loop[] = [];

  constructor(private readonly backend: QueueBackend, private readonly log: LogSink) {}

  /**
   * `gatherMs`: after a fetch that did not fill a batch, a woken loop waits this long before
   * fetching again, so that jobs arriving one by one (each with its own wake-up) are taken in
   * batches rather than one fetch, one transaction and one completion each. Default 10 ms.
   */
  add<T>(queue: string, options: WorkOptions & { gatherMs?: number }, handler: JobBatchHandler<T>): void {
    if (!this.running) throw new Error("the queue is stopping");
    const batchSize = Math.max(1, options.batchSize ?? 1);
    const pollMs = options.pollIntervalMs ?? 1_000;
    const gatherMs = options.gatherMs ?? 10;
    for (let i = 0; i < Math.max(1, options.concurrency ?? 1); i++) {
      const loop: Loop = { queue, current: null, woken: false, wakeUp: null, done: Promise.resolve() };
      loop.done = this.run(loop, batchSize, pollMs, gatherMs, handler as JobBatchHandler<unknown>);
      this.loops.push(loop);
    }
  }

  wake(queue: string): void {
    for (const l of this.loops) {
      if (l.queue !== queue) continue;
      l.woken = true;
      l.wakeUp?.();
    }
  }

  get size(): number {
    return this.loops.length;
  }

  async stop(timeoutMs: number): Promise<void> {
    this.running = false;
    for (const l of this.loops) l.wakeUp?.();
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([
      Promise.all(this.loops.map((l) => l.done)).then(() => false),
      new Promise<boolean>((r) => (timer = setTimeout(() => r(true), timeoutMs))),
    ]);
    clearTimeout(timer);
    if (!timedOut) return;
    for (const l of this.loops) {
      const ids = l.current?.ids;
      if (!ids || ids.length === 0) continue;
      this.log.warn({ queue: l.queue, jobs: ids.length }, "shutdown timed out: handing unfinished jobs back to the queue");
      await this.backend.release(l.queue, ids).catch((e: unknown) => this.log.error({ err: e }, "releasing jobs failed"));
    }
  }

  private async run(loop: Loop, batchSize: number, pollMs: number, gatherMs: number, handler: JobBatchHandler<unknown>): Promise<void> {
    let lastFetch = 0;
    let lastFull = false;
    while (this.running) {
      const since = performance.now() - lastFetch;
      if (!lastFull && since < gatherMs) await new Promise((r) => setTimeout(r, gatherMs - since));
      if (!this.running) break;
      loop.woken = false;
      lastFetch = performance.now();
      let jobs: QueuedJob[] = [];
      try {
        jobs = await this.backend.fetch(loop.queue, batchSize);
      } catch (e) {
        this.log.error({ err: e, queue: loop.queue }, "fetching jobs failed");
      }
      lastFull = jobs.length >= batchSize;
      if (jobs.length === 0) {
        // Decided before looking at `woken`: a job sent while the next due time is read wakes the loop.
        const wait = await this.idleWait(loop.queue, pollMs);
        if (this.running && !loop.woken) await this.sleep(loop, wait);
        continue;
      }
      const ids = jobs.map((j) => j.id);
      loop.current = { ids };
      try {
        await handler(jobs);
        await this.backend.complete(loop.queue, ids).catch((e: unknown) => this.log.error({ err: e, queue: loop.queue }, "completing jobs failed; they will run again after their lease"));
      } catch (e) {
        this.log.warn({ err: e, queue: loop.queue, jobs: ids.length }, "job batch failed; retrying later");
        await this.backend.fail(loop.queue, ids, e).catch((err: unknown) => this.log.error({ err, queue: loop.queue }, "failing jobs failed"));
      } finally {
        loop.current = null;
      }
    }
  }

  /**
   * How long a loop that found nothing sleeps: its poll interval; or, where the backend knows when
   * the next job is due, until then (at most IDLE_SLEEP_MS), so that an idle process does not
   * query its database every second (decision 0108).
   */
  private async idleWait(queue: string, pollMs: number): Promise<number> {
    if (!this.backend.nextDueMs) return pollMs;
    let due: number | null;
    try {
      due = await this.backend.nextDueMs(queue);
    } catch (e) {
      this.log.error({ err: e, queue }, "reading when the next job is due failed");
      return pollMs;
    }
    // Due already but not taken (another loop holds it for the moment): look again at the poll interval.
    if (due === null) return IDLE_SLEEP_MS;
    return due <= 0 ? pollMs : Math.min(IDLE_SLEEP_MS, due + 5);
  }

  private sleep(loop: Loop, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(finish, ms);
      function finish() {
        clearTimeout(timer);
        loop.wakeUp = null;
        resolve();
      }
      loop.wakeUp = finish;
    });
  }
}

export const errorOutput = (e: unknown): { message: string } => ({ message: (e instanceof Error ? e.message : String(e)).slice(0, 1000) });
