import type { QueueDepth } from "@svc/metrics";

/** A queue that can say how many jobs wait and run (read at metrics scrape time, not on the job path). */
export interface QueueDepthReader {
  depth(queues: readonly string[]): Promise<QueueDepth[]>;
}

export function isQueueDepthReader(q: unknown): q is QueueDepthReader {
  return typeof (q as Partial<QueueDepthReader> | null)?.depth === "function";
}
