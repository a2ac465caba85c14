import type { PgBossJobQueue, PgBossJobQueueOptions } from "./pg-boss-job-queue.js";

export type { PgBossJobQueue, PgBossJobQueueOptions };

/**
 * The JobQueue on PostgreSQL (pg-boss), started. pg-boss and `pg` are imported here, on the first
 * call: a process on embedded PGlite (the SqlJobQueue) never loads them (docs/decisions/0091).
 */
export async function openPgBossJobQueue(options: PgBossJobQueueOptions): Promise<PgBossJobQueue> {
  const { PgBossJobQueue } = await import("./pg-boss-job-queue.js");
  return new PgBossJobQueue(options).start();
}
