import { randomUUID } from "node:crypto";
import { auditRecordOf, screenEntity, type CheckRepository, type Clock, type IdGenerator, type NewAuditRecord, type ScreeningDeps, type Screened } from "@svc/core";
import { checkIdForJob, type AsyncJobRequest, type JobBatchHandler } from "@svc/server-ports";
import { countCheck, jobLatency } from "@svc/metrics";
import type { DataSource, EntityManager } from "typeorm";
import { CHECK_QUEUE, type CheckJobData } from "../async-jobs/queues.js";
import { silentLog, type LogSink } from "../log.js";
import { rowsOf, valuesList } from "../sql.js";

export interface CheckWorkerDeps {
  readonly ds: DataSource;
  readonly screening: ScreeningDeps;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** The audit trail, writing inside the worker's transaction. */
  readonly checksIn: (m: EntityManager) => Pick<CheckRepository, "saveMany">;
  /** Told when outbox messages were committed. */
  readonly relay?: { wake(): void };
  readonly logger?: LogSink;
  /** Called after a commit with the verdicts stored (e.g. graph learning); errors are the callee's. */
  readonly afterCommit?: (screened: readonly Screened[]) => void;
  /** Test knob for crash tests: pause this long between taking jobs and screening them. */
  readonly pauseMs?: number;
}

interface RunningJob {
  id: string;
  account_id: string;
  key_id: string | null;
  request: AsyncJobRequest;
  webhook_url: string | null;
  metadata: Record<string, unknown> | null;
  created_at: Date;
}

type Outcome =
  | { readonly job: RunningJob; readonly ok: true; readonly screened: Screened }
  | { readonly job: RunningJob; readonly ok: false; readonly error: { readonly code: string; readonly message: string } };

export const EVENTS = { completed: "screen.completed", failed: "screen.failed" } as const;

/** The body of a webhook: Standard Webhooks' `{type, timestamp, data}`. */
export function webhookBody(o: Outcome, at: Date): { type: string; body: string } {
  const type = o.ok ? EVENTS.completed : EVENTS.failed;
  const data = o.ok
    ? { job_id: o.job.id, status: "succeeded", check_id: o.screened.verdict.id, request: o.job.request, metadata: o.job.metadata, result: o.screened.verdict }
    : { job_id: o.job.id, status: "failed", check_id: null, request: o.job.request, metadata: o.job.metadata, error: o.error };
  return { type, body: JSON.stringify({ type, timestamp: at.toISOString(), data }) };
}

/**
 * Marks the jobs running under a new fencing token. Jobs that are canceled or already finished
 * are skipped (a re-delivery of a job whose verdict committed just before a crash ends here).
 */
async function begin(d: CheckWorkerDeps, jobIds: readonly string[], token: string): Promise<RunningJob[]> {
  return rowsOf<RunningJob>(d.ds,
    `UPDATE async_jobs SET status = 'running', started_at = COALESCE(started_at, $2::timestamptz), attempts = attempts + 1, run_token = $3
      WHERE id = ANY($1::text[]) AND status IN ('queued', 'running')
      RETURNING id, account_id, key_id, request, webhook_url, metadata, created_at`,
    [[...new Set(jobIds)], d.clock.now(), token]);
}

/**
 * One transaction for the batch: the job states (fenced on the run token: a run that lost its
 * lease to another worker commits nothing), the audit records of the verdicts, and the outbox
 * rows of their webhooks. Either all of it is stored or none.
 */
async function finish(d: CheckWorkerDeps, outcomes: readonly Outcome[], token: string): Promise<number> {
  if (outcomes.length === 0) return 0;
  let messages = 0;
  const committed: Screened[] = [];
  let finished: readonly Outcome[] = [];
  let finishedAt = d.clock.now();
  await d.ds.transaction(async (m) => {
    const at = d.clock.now();
    const states = valuesList(outcomes.map((o) => [o.job.id, o.ok ? "succeeded" : "failed", o.ok ? o.screened.verdict.id : null, o.ok ? null : JSON.stringify(o.error)]), ["text", "text", "text", "jsonb"]);
    const owned = new Set((await rowsOf<{ id: string }>(m,
      `UPDATE async_jobs j SET status = v.status, check_id = v.check_id, error = v.error, finished_at = $${states.params.length + 1}::timestamptz, run_token = NULL
         FROM (VALUES ${states.sql}) AS v(id, status, check_id, error)
        WHERE j.id = v.id AND j.status = 'running' AND j.run_token = $${states.params.length + 2}
        RETURNING j.id`,
      [...states.params, at, token])).map((r) => r.id));
    const mine = outcomes.filter((o) => owned.has(o.job.id));
    finished = mine;
    finishedAt = at;
    // Chain heads are locked per account in one order, so two workers never wait on each other in a cycle.
    const byAccount = new Map<string, NewAuditRecord[]>();
    for (const o of mine) {
      if (!o.ok) continue;
      const rec = auditRecordOf({ accountId: o.job.account_id, actor: { key_id: o.job.key_id, channel: "api" }, request: o.job.request, screened: o.screened, now: at });
      byAccount.set(o.job.account_id, [...(byAccount.get(o.job.account_id) ?? []), rec]);
      committed.push(o.screened);
    }
    const checks = d.checksIn(m);
    for (const account of [...byAccount.keys()].sort()) await checks.saveMany(byAccount.get(account) as NewAuditRecord[]);
    const hooks = mine.filter((o) => o.job.webhook_url);
    if (hooks.length > 0) {
      const rows = hooks.map((o) => {
        const { type, body } = webhookBody(o, at);
        return [d.ids.next("msg"), o.job.id, o.job.account_id, o.job.webhook_url, type, body, "pending", at, at];
      });
      const v = valuesList(rows, ["text", "text", "text", "text", "text", "text", "text", "timestamptz", "timestamptz"]);
      await rowsOf(m, `INSERT INTO webhook_messages (id, job_id, account_id, url, event_type, body, status, next_attempt_at, created_at) VALUES ${v.sql}`, v.params);
      messages = hooks.length;
    }
  });
  if (messages > 0) d.relay?.wake();
  // Counted once committed: a run that lost its lease (fenced out above) counts nothing.
  for (const o of finished) {
    // Labelled with the queue's name, as svc_queue_depth is: one series per queue in both.
    jobLatency.observe({ queue: CHECK_QUEUE, outcome: o.ok ? "succeeded" : "failed" }, Math.max(0, finishedAt.getTime() - new Date(o.job.created_at).getTime()) / 1000);
    if (o.ok) countCheck("async", o.screened.entity.type, o.screened.verdict.risk_level);
  }
  if (committed.length > 0) d.afterCommit?.(committed);
  return outcomes.length;
}

/** Consumes check jobs: screen, then store verdict, job state and webhook in one transaction. */
export function checkJobHandler(d: CheckWorkerDeps): JobBatchHandler<CheckJobData> {
  const log = d.logger ?? silentLog;
  return async (jobs) => {
    const token = randomUUID();
    const running = await begin(d, jobs.map((j) => j.data.job_id), token);
    if (running.length === 0) return;
    if (d.pauseMs) await new Promise((r) => setTimeout(r, d.pauseMs));
    const outcomes = await Promise.all(running.map(async (job): Promise<Outcome> => {
      try {
        const r = await screenEntity(job.request, d.screening, { id: checkIdForJob(job.id) });
        if (!r.ok) return { job, ok: false, error: { code: r.error.code, message: r.error.message } };
        return { job, ok: true, screened: r };
      } catch (e) {
        log.error({ err: e, job_id: job.id }, "screening crashed");
        return { job, ok: false, error: { code: "internal", message: "The check could not be completed; submit it again." } };
      }
    }));
    await finish(d, outcomes, token);
  };
}

/** Jobs that used up their retries: recorded as failed, with a `screen.failed` webhook. */
export function deadCheckJobHandler(d: CheckWorkerDeps): JobBatchHandler<CheckJobData> {
  return async (jobs) => {
    const token = randomUUID();
    const running = await begin(d, jobs.map((j) => j.data.job_id), token);
    await finish(d, running.map((job) => ({ job, ok: false, error: { code: "job.failed", message: "The check failed repeatedly and was given up; submit it again." } })), token);
  };
}
