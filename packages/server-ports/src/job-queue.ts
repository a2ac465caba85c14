import type { EntityType, Verdict } from "@svc/core";

/**
 * A durable work queue. Jobs survive restarts; a job taken by a worker is leased to it, and a
 * worker that dies without finishing lets its lease run out, after which the job runs again.
 * Delivery is therefore at least once: handlers must be idempotent (the check worker fences on
 * the job row, so a re-run never stores a second verdict).
 *
 * `Tx` is the adapter's unit of work (a TypeORM EntityManager for the SQL adapters): a job sent
 * with `tx` exists only if that transaction commits.
 */
export interface JobQueue<Tx = never> {
  /** Creates the queue when missing; every process may call it at start. */
  createQueue(name: string, settings: QueueSettings): Promise<void>;
  /** Enqueues durably and returns the queue's job id. */
  send<T>(queue: string, data: T, options?: SendOptions<Tx>): Promise<string>;
  /**
   * Starts taking jobs. The handler gets batches; when it resolves every job of the batch is
   * complete, when it rejects every job is retried after the queue's delay, and a job that has
   * used up `retryLimit` is copied to the queue's dead-letter queue.
   */
  work<T>(queue: string, options: WorkOptions, handler: JobBatchHandler<T>): Promise<void>;
  /**
   * Stops taking jobs, waits up to `timeoutMs` (default 30 s) for the batches in flight, and
   * hands back to the queue those that did not finish in time.
   */
  stop(options?: { readonly timeoutMs?: number }): Promise<void>;
}

export interface QueueSettings {
  /** Retries after the first run before the job is dead. */
  readonly retryLimit: number;
  readonly retryDelaySeconds: number;
  /** How long a taken job stays leased; the job of a worker that died runs again after this. */
  readonly leaseSeconds: number;
  /** Where dead jobs go (their data, for a handler that records the failure). */
  readonly deadLetter?: string;
}

export interface SendOptions<Tx> {
  readonly tx?: Tx;
  readonly startAfter?: Date;
}

export interface WorkOptions {
  /** At most this many jobs per handler call; default 1. */
  readonly batchSize?: number;
  /** Handler calls in flight at once; default 1. */
  readonly concurrency?: number;
  /** How often an idle worker looks for jobs it was not told about; default 1 s. */
  readonly pollIntervalMs?: number;
}

export interface QueuedJob<T = unknown> {
  readonly id: string;
  readonly queue: string;
  readonly data: T;
  /** 0 on the first run; one more on every retry (after a failure or an expired lease). */
  readonly retryCount: number;
  readonly retryLimit: number;
}

export type JobBatchHandler<T> = (jobs: readonly QueuedJob<T>[]) => Promise<void>;

// --- Asynchronous checks (POST /v1/screen/async, GET /v1/jobs/{id}) ---

export type AsyncJobStatus = "queued" | "running" | "succeeded" | "failed" | "canceled";
export const ASYNC_JOB_STATUSES: readonly AsyncJobStatus[] = ["queued", "running", "succeeded", "failed", "canceled"];

export interface AsyncJobRequest {
  readonly entity_value: string;
  readonly type?: EntityType;
}

export interface NewAsyncJob {
  /** `job_…`; the verdict's check id is derived from it (`chk_…` with the same suffix). */
  readonly id: string;
  readonly account_id: string;
  readonly key_id: string | null;
  readonly request: AsyncJobRequest;
  /** Already checked by the `WebhookUrlGuard`. */
  readonly webhook_url: string | null;
  readonly metadata: Readonly<Record<string, unknown>> | null;
  readonly created_at: Date;
  /** The request's Idempotency-Key: a retry after a crash finds this job instead of making another. */
  readonly idempotency_key?: string | null;
}

/**
 * `pending` until the first attempt; `retrying` after a failed one; then `delivered`, `failed`
 * (schedule used up) or `disabled` (the endpoint answered 410). `canceled`: the job was canceled,
 * nothing is sent.
 */
export type WebhookDeliveryStatus = "pending" | "retrying" | "delivered" | "failed" | "disabled" | "canceled";

export interface WebhookAttemptView {
  readonly attempt: number;
  readonly at: string;
  readonly outcome: string;
  readonly status_code: number | null;
  readonly duration_ms: number;
  readonly error: string | null;
}

export interface WebhookDeliveryView {
  readonly url: string;
  readonly status: WebhookDeliveryStatus;
  /** The `webhook-id` (stable across retries); null until the job has finished. */
  readonly message_id: string | null;
  readonly event: string | null;
  readonly attempts: number;
  readonly last_attempt_at: string | null;
  readonly next_attempt_at: string | null;
  readonly last_status_code: number | null;
  readonly deliveries: readonly WebhookAttemptView[];
}

export interface AsyncJobView {
  readonly id: string;
  readonly status: AsyncJobStatus;
  readonly created_at: string;
  readonly started_at: string | null;
  readonly finished_at: string | null;
  readonly request: AsyncJobRequest;
  readonly metadata: Readonly<Record<string, unknown>> | null;
  /** The verdict (also stored as an audit record with id `check_id`). */
  readonly result: Verdict | null;
  readonly check_id: string | null;
  readonly error: { readonly code: string; readonly message: string } | null;
  readonly webhook: WebhookDeliveryView | null;
}

export type CancelResult =
  | { readonly ok: true; readonly job: AsyncJobView }
  /** Unknown (or another account's) job: `job` is null; a job past `queued`: `job` is its state. */
  | { readonly ok: false; readonly job: AsyncJobView | null };

/** The asynchronous checks of every account; a job is only ever visible to its own account. */
export interface AsyncJobStore {
  /** Stores the job and enqueues it in one transaction: once this resolves, the job will run. */
  submit(job: NewAsyncJob): Promise<AsyncJobView>;
  /** Null when unknown or another account's. */
  get(accountId: string, jobId: string): Promise<AsyncJobView | null>;
  /** The account's job submitted with this Idempotency-Key at or after `since`, if any. */
  findByIdempotencyKey(accountId: string, key: string, since: Date): Promise<AsyncJobView | null>;
  /** Only a `queued` job can be canceled; the worker then skips it and no webhook is sent. */
  cancel(accountId: string, jobId: string, now: Date): Promise<CancelResult>;
}

/** `job_X` → `chk_X`: a re-run of a job can never produce a second audit record. */
export const checkIdForJob = (jobId: string): string => `chk_${jobId.replace(/^job_/, "")}`;
