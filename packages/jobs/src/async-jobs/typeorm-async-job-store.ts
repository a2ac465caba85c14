import type { Verdict } from "@svc/core";
import type { AsyncJobRequest, AsyncJobStatus, AsyncJobStore, AsyncJobView, CancelResult, JobQueue, NewAsyncJob, WebhookAttemptView, WebhookDeliveryStatus } from "@svc/server-ports";
import type { DataSource, EntityManager } from "typeorm";
import { isComposable } from "../queue/composable.js";
import { iso, isoOrNull, preparedRunner, rowsOf } from "../sql.js";
import { CHECK_QUEUE, type CheckJobData } from "./queues.js";

interface JobRow {
  id: string;
  status: AsyncJobStatus;
  request: AsyncJobRequest;
  webhook_url: string | null;
  metadata: Record<string, unknown> | null;
  check_id: string | null;
  error: { code: string; message: string } | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  verdict: Verdict | null;
  msg_id: string | null;
  msg_event: string | null;
  msg_status: "pending" | "delivered" | "failed" | "disabled" | null;
  msg_attempts: number | null;
  msg_last_attempt_at: Date | null;
  msg_next_attempt_at: Date | null;
  msg_last_status_code: number | null;
}

interface AttemptRow {
  attempt: number;
  started_at: Date;
  outcome: string;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
}

/** Jobs, their verdicts (in `checks`) and their webhook (in the outbox), for the API. */
export class TypeOrmAsyncJobStore implements AsyncJobStore {
  private readonly prepared: ReturnType<typeof preparedRunner>;

  constructor(private readonly ds: DataSource, private readonly queue: JobQueue<EntityManager>) {
    this.prepared = preparedRunner(ds);
  }

  async submit(job: NewAsyncJob): Promise<AsyncJobView> {
    const insertJob = `INSERT INTO async_jobs (id, account_id, key_id, status, request, webhook_url, metadata, created_at, idempotency_key)
         VALUES ($1, $2, $3, 'queued', $4::jsonb, $5, $6::jsonb, $7::timestamptz, $8)`;
    const params = [job.id, job.account_id, job.key_id, JSON.stringify(job.request), job.webhook_url, job.metadata ? JSON.stringify(job.metadata) : null, job.created_at, job.idempotency_key ?? null];
    const data: CheckJobData = { job_id: job.id };
    if (isComposable(this.queue)) {
      // One statement, so one implicit transaction: the job row and its queue entry commit together.
      const q = await this.queue.sendStatement(CHECK_QUEUE, data, params.length);
      await this.prepared(
        `WITH job AS (${insertJob} RETURNING id), queued AS (${q.sql})
         -- No queue entry (its queue is missing) must not leave a job that never runs: fail the statement.
         SELECT 1 / (SELECT count(*)::int FROM queued) AS ok${q.notify ? `, ${q.notify} AS notified` : ""} FROM job`,
        [...params, ...q.params]);
      q.afterCommit();
    } else {
      await this.ds.transaction(async (m) => {
        await rowsOf(m, insertJob, params);
        await this.queue.send<CheckJobData>(CHECK_QUEUE, data, { tx: m });
      });
    }
    return {
      id: job.id, status: "queued", created_at: job.created_at.toISOString(), started_at: null, finished_at: null, request: job.request,
      metadata: job.metadata, result: null, check_id: null, error: null,
      webhook: job.webhook_url ? { url: job.webhook_url, status: "pending", message_id: null, event: null, attempts: 0, last_attempt_at: null, next_attempt_at: null, last_status_code: null, deliveries: [] } : null,
    };
  }

  async get(accountId: string, jobId: string): Promise<AsyncJobView | null> {
    const [row] = await rowsOf<JobRow>(this.ds,
      `SELECT j.id, j.status, j.request, j.webhook_url, j.metadata, j.check_id, j.error, j.created_at, j.started_at, j.finished_at,
              c.verdict,
              w.id AS msg_id, w.event_type AS msg_event, w.status AS msg_status, w.attempts AS msg_attempts,
              w.last_attempt_at AS msg_last_attempt_at, w.next_attempt_at AS msg_next_attempt_at, w.last_status_code AS msg_last_status_code
         FROM async_jobs j
         LEFT JOIN checks c ON c.id = j.check_id AND c.account_id = j.account_id
         LEFT JOIN webhook_messages w ON w.job_id = j.id
        WHERE j.id = $1 AND j.account_id = $2`,
      [jobId, accountId]);
    if (!row) return null;
    const attempts = row.msg_id
      ? await rowsOf<AttemptRow>(this.ds, `SELECT attempt, started_at, outcome, status_code, duration_ms, error FROM webhook_attempts WHERE message_id = $1 ORDER BY attempt`, [row.msg_id])
      : [];
    return toView(row, attempts);
  }

  async findByIdempotencyKey(accountId: string, key: string, since: Date): Promise<AsyncJobView | null> {
    const [row] = await rowsOf<{ id: string }>(this.ds,
      `SELECT id FROM async_jobs WHERE account_id = $1 AND idempotency_key = $2 AND created_at >= $3::timestamptz ORDER BY created_at DESC LIMIT 1`,
      [accountId, key, since]);
    return row ? this.get(accountId, row.id) : null;
  }

  async cancel(accountId: string, jobId: string, now: Date): Promise<CancelResult> {
    const done = await rowsOf<{ id: string }>(this.ds,
      `UPDATE async_jobs SET status = 'canceled', finished_at = $3::timestamptz WHERE id = $1 AND account_id = $2 AND status = 'queued' RETURNING id`,
      [jobId, accountId, now]);
    const job = await this.get(accountId, jobId);
    return done.length === 1 && job ? { ok: true, job } : { ok: false, job };
  }
}

function webhookStatus(row: JobRow): WebhookDeliveryStatus {
  if (!row.msg_status) return row.status === "canceled" ? "canceled" : "pending";
  if (row.msg_status === "pending") return (row.msg_attempts ?? 0) > 0 ? "retrying" : "pending";
  return row.msg_status;
}

function toView(row: JobRow, attempts: readonly AttemptRow[]): AsyncJobView {
  const deliveries: WebhookAttemptView[] = attempts.map((a) => ({
    attempt: a.attempt, at: iso(a.started_at), outcome: a.outcome, status_code: a.status_code, duration_ms: a.duration_ms, error: a.error,
  }));
  return {
    id: row.id,
    status: row.status,
    created_at: iso(row.created_at),
    started_at: isoOrNull(row.started_at),
    finished_at: isoOrNull(row.finished_at),
    request: row.request,
    metadata: row.metadata,
    result: row.status === "succeeded" ? row.verdict : null,
    check_id: row.check_id,
    error: row.error,
    webhook: row.webhook_url
      ? {
        url: row.webhook_url,
        status: webhookStatus(row),
        message_id: row.msg_id,
        event: row.msg_event,
        attempts: row.msg_attempts ?? 0,
        last_attempt_at: isoOrNull(row.msg_last_attempt_at),
        next_attempt_at: row.msg_status === "pending" ? isoOrNull(row.msg_next_attempt_at) : null,
        last_status_code: row.msg_last_status_code,
        deliveries,
      }
      : null,
  };
}
