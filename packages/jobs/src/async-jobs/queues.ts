import type { JobQueue, QueueSettings } from "@svc/server-ports";

/** Asynchronous checks: `{ job_id }` messages. */
export const CHECK_QUEUE = "screen-checks";
/** Checks that failed `retryLimit` times (or whose worker kept dying): recorded as failed. */
export const DEAD_CHECK_QUEUE = "screen-checks-dead";

export interface CheckJobData {
  readonly job_id: string;
}

export const checkQueueSettings = (leaseSeconds = 30): QueueSettings => ({ retryLimit: 5, retryDelaySeconds: 1, leaseSeconds, deadLetter: DEAD_CHECK_QUEUE });
export const deadCheckQueueSettings = (leaseSeconds = 30): QueueSettings => ({ retryLimit: 10, retryDelaySeconds: 5, leaseSeconds });

/** Every process that sends or works these queues creates them first (idempotent). */
export async function createCheckQueues(q: Pick<JobQueue<unknown>, "createQueue">, leaseSeconds = 30): Promise<void> {
  await q.createQueue(DEAD_CHECK_QUEUE, deadCheckQueueSettings(leaseSeconds));
  await q.createQueue(CHECK_QUEUE, checkQueueSettings(leaseSeconds));
}

/** Account deletions: `{ deletion_id }` messages, run at the request's `purge_after`. */
export const ACCOUNT_PURGE_QUEUE = "account-purge";

export interface AccountPurgeJobData {
  readonly deletion_id: string;
}

export async function createAccountPurgeQueue(q: Pick<JobQueue<unknown>, "createQueue">, leaseSeconds = 60): Promise<void> {
  await q.createQueue(ACCOUNT_PURGE_QUEUE, { retryLimit: 20, retryDelaySeconds: 60, leaseSeconds });
}
