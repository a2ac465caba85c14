import type { FeedSync, FeedSyncResult } from "./sync.js";

export interface FeedSchedule {
  /** Resolves when a sync in progress (if any) has finished; no new one starts. */
  stop(): Promise<void>;
  /** Resolves with the results of the next run that finishes (tests, logs). */
  nextRun(): Promise<FeedSyncResult[]>;
}

/**
 * Syncs every feed every `everyMs` (the first run `firstAfterMs` after start). With several
 * processes (API replicas, workers), a feed another process checked less than `everyMs` ago is
 * skipped, so the feed's server is asked about once per period.
 */
export function startFeedSchedule(sync: FeedSync, options: { everyMs: number; firstAfterMs?: number; onError?: (e: unknown) => void }): FeedSchedule {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let waiters: ((r: FeedSyncResult[]) => void)[] = [];
  const run = (): void => {
    timer = undefined;
    if (stopped) return;
    running = sync
      .syncAll({ dueAfterMs: Math.max(0, options.everyMs - 1_000) })
      .then((results) => {
        const w = waiters;
        waiters = [];
        for (const resolve of w) resolve(results);
      })
      .catch((e: unknown) => options.onError?.(e))
      .finally(() => {
        if (!stopped) timer = setTimeout(run, options.everyMs);
        timer?.unref();
      });
  };
  timer = setTimeout(run, options.firstAfterMs ?? 5_000);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
    nextRun: () => new Promise((resolve) => waiters.push(resolve)),
  };
}
