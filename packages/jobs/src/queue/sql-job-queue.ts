import { randomUUID } from "node:crypto";
import type { JobBatchHandler, JobQueue, QueuedJob, QueueSettings, SendOptions, WorkOptions } from "@svc/server-ports";
import type { DataSource, EntityManager } from "typeorm";
import { silentLog, type LogSink } from "../log.js";
import { rowsOf, valuesList, type Queryable } from "../sql.js";
import type { ComposableSend, ComposedSend } from "./composable.js";
import { Consumers, errorOutput, type QueueBackend } from "./consumers.js";
import type { QueueDepthReader } from "./depth.js";

export interface SqlJobQueueOptions {
  readonly logger?: LogSink;
  /** This process's name on the leases it holds. */
  readonly workerId?: string;
  /** How often expired leases are looked for; default 1 s (15 s with `singleProcess`: only this process's own stalled jobs can hold one). */
  readonly maintenanceIntervalMs?: number;
  /** Finished jobs are deleted after this long; default 7 days. */
  readonly retentionMs?: number;
  /**
   * The database is this process's alone (embedded PGlite): a lease found when work starts was
   * held by a process that died, so its job is put back at once instead of after the lease.
   */
  readonly singleProcess?: boolean;
}

interface JobRow {
  id: string;
  queue: string;
  data: unknown;
  retry_count: number;
  retry_limit: number;
}

interface DeadRow {
  id: string;
  queue?: string;
  state: string;
  dead_letter: string | null;
  data: unknown;
  output: unknown;
}

/**
 * The embedded job queue: rows of `job_queue`, taken with `FOR UPDATE SKIP LOCKED` and leased
 * for the queue's `leaseSeconds`. A lease that runs out (its worker died) puts the job back,
 * counting a retry; a job past its retry limit is copied to its dead-letter queue. Runs on the
 * application's own DataSource, so on PGlite it shares the one session lock with everything else
 * (and on PostgreSQL it works too, across processes).
 */
export class SqlJobQueue implements JobQueue<EntityManager>, ComposableSend, QueueDepthReader {
  private readonly settings = new Map<string, QueueSettings>();
  private readonly log: LogSink;
  private readonly owner: string;
  private readonly consumers: Consumers;
  private maintenance: NodeJS.Timeout | null = null;
  private lastPurge = 0;

  constructor(private readonly ds: DataSource, private readonly options: SqlJobQueueOptions = {}) {
    this.log = options.logger ?? silentLog;
    this.owner = options.workerId ?? `worker-${randomUUID()}`;
    const backend: QueueBackend = {
      fetch: (q, n) => this.fetch(q, n),
      complete: (q, ids) => this.complete(ids),
      fail: (q, ids, e) => this.fail(ids, e),
      release: (q, ids) => this.release(ids),
      // Only this process writes an embedded database: every send wakes the consumers, and the
      // rest of the time they sleep until the next job is due (decision 0108).
      ...(options.singleProcess ? { nextDueMs: (q: string) => this.nextDueMs(q) } : {}),
    };
    this.consumers = new Consumers(backend, this.log);
  }

  async createQueue(name: string, settings: QueueSettings): Promise<void> {
    this.settings.set(name, settings);
  }

  async send<T>(queue: string, data: T, options: SendOptions<EntityManager> = {}): Promise<string> {
    const { sql, params, id } = this.insert(queue, data, 0, options.startAfter ?? null);
    await rowsOf(options.tx ?? this.ds, sql, params);
    // On PGlite a woken consumer waits for the session, i.e. until this transaction has ended.
    this.consumers.wake(queue);
    return id;
  }

  async sendStatement(queue: string, data: unknown, offset: number): Promise<ComposedSend> {
    const { sql, params } = this.insert(queue, data, offset, null);
    return { sql, params, notify: null, afterCommit: () => this.consumers.wake(queue) };
  }

  private insert(queue: string, data: unknown, offset: number, startAfter: Date | null): { sql: string; params: unknown[]; id: string } {
    const s = this.settings.get(queue);
    if (!s) throw new Error(`queue ${queue} has not been created in this process`);
    const id = randomUUID();
    const p = (n: number) => `$${offset + n}`;
    return {
      id,
      sql: `INSERT INTO job_queue (id, queue, data, state, retry_limit, retry_delay_seconds, lease_seconds, dead_letter, start_after, created_at)
            VALUES (${p(1)}, ${p(2)}, ${p(3)}::jsonb, 'created', ${p(4)}::int, ${p(5)}::int, ${p(6)}::int, ${p(7)}, COALESCE(${p(8)}::timestamptz, now()), now())
            RETURNING id`,
      params: [id, queue, JSON.stringify(data ?? null), s.retryLimit, s.retryDelaySeconds, s.leaseSeconds, s.deadLetter ?? null, startAfter],
    };
  }

  async work<T>(queue: string, options: WorkOptions, handler: JobBatchHandler<T>): Promise<void> {
    if (this.options.singleProcess && this.consumers.size === 0) {
      await rowsOf(this.ds,
        `UPDATE job_queue SET state = 'retry', start_after = now(), locked_until = NULL, locked_by = NULL,
            output = '{"message":"the process that held this job died"}'::jsonb
          WHERE state = 'active'`);
    }
    this.consumers.add(queue, options, handler);
    if (!this.maintenance) {
      const every = this.options.maintenanceIntervalMs ?? (this.options.singleProcess ? 15_000 : 1_000);
      this.maintenance = setInterval(() => void this.maintain().catch((e: unknown) => this.log.error({ err: e }, "job queue maintenance failed")), every);
      this.maintenance.unref();
    }
  }

  /** Jobs waiting (created or retry) and active, per queue (the partial indexes on state cover it). */
  async depth(queues: readonly string[]): Promise<{ queue: string; state: string; count: number }[]> {
    const rows = await rowsOf<{ queue: string; state: string; count: string }>(this.ds,
      `SELECT queue, CASE WHEN state = 'active' THEN 'active' ELSE 'waiting' END AS state, count(*) AS count
         FROM job_queue WHERE queue = ANY($1::text[]) AND state IN ('created', 'retry', 'active') GROUP BY 1, 2`,
      [[...queues]]);
    return queues.flatMap((queue) => ["waiting", "active"].map((state) => ({ queue, state, count: Number(rows.find((r) => r.queue === queue && r.state === state)?.count ?? 0) })));
  }

  async stop(options: { timeoutMs?: number } = {}): Promise<void> {
    if (this.maintenance) clearInterval(this.maintenance);
    this.maintenance = null;
    await this.consumers.stop(options.timeoutMs ?? 30_000);
  }

  /** Puts jobs whose lease ran out back in their queue (or in the dead-letter queue), and purges old ones. */
  async maintain(): Promise<void> {
    await this.ds.transaction(async (m) => {
      const dead = await rowsOf<DeadRow>(m,
        `UPDATE job_queue SET state = CASE WHEN retry_count < retry_limit THEN 'retry' ELSE 'failed' END,
            start_after = now() + retry_delay_seconds * interval '1 second', locked_until = NULL, locked_by = NULL,
            completed_at = CASE WHEN retry_count < retry_limit THEN NULL ELSE now() END,
            output = '{"message":"lease expired: the worker died or stalled"}'::jsonb
          WHERE state = 'active' AND locked_until < now()
          RETURNING id, queue, state, dead_letter, data, output`);
      await this.buryDead(m, dead);
      // Their consumers may be asleep until a later job is due: they look again now.
      for (const q of new Set(dead.flatMap((r) => (r.state === "retry" && r.queue ? [r.queue] : [])))) this.consumers.wake(q);
    });
    const retention = this.options.retentionMs ?? 7 * 86_400_000;
    if (Date.now() - this.lastPurge > Math.min(retention, 3_600_000)) {
      this.lastPurge = Date.now();
      await rowsOf(this.ds, `DELETE FROM job_queue WHERE state IN ('completed', 'failed') AND completed_at < now() - $1::int * interval '1 millisecond'`, [retention]);
    }
  }

  /** Milliseconds until the queue's next waiting job may start (≤ 0: now); null when none waits. */
  private async nextDueMs(queue: string): Promise<number | null> {
    const [row] = await rowsOf<{ ms: number | string | null }>(this.ds,
      `SELECT (EXTRACT(EPOCH FROM min(start_after) - now()) * 1000)::float8 AS ms
         FROM job_queue WHERE queue = $1 AND state IN ('created', 'retry')`,
      [queue]);
    return row?.ms == null ? null : Number(row.ms);
  }

  private async fetch(queue: string, limit: number): Promise<QueuedJob[]> {
    const rows = await rowsOf<JobRow>(this.ds,
      `WITH next AS (
         SELECT id FROM job_queue
          WHERE queue = $1 AND state IN ('created', 'retry') AND start_after <= now()
          ORDER BY start_after, created_at
          LIMIT $2
          FOR UPDATE SKIP LOCKED)
       UPDATE job_queue j SET state = 'active', locked_by = $3, locked_until = now() + j.lease_seconds * interval '1 second',
           retry_count = CASE WHEN j.started_at IS NULL THEN j.retry_count ELSE j.retry_count + 1 END, started_at = now()
         FROM next WHERE j.id = next.id
       RETURNING j.id, j.queue, j.data, j.retry_count, j.retry_limit`,
      [queue, limit, this.owner]);
    return rows.map((r) => ({ id: r.id, queue: r.queue, data: r.data, retryCount: r.retry_count, retryLimit: r.retry_limit }));
  }

  private async complete(ids: readonly string[]): Promise<void> {
    // Only while the lease is still ours: a job taken over after its lease ran out is finished by its new holder.
    await rowsOf(this.ds,
      `UPDATE job_queue SET state = 'completed', completed_at = now(), locked_until = NULL, locked_by = NULL
        WHERE id = ANY($1::text[]) AND state = 'active' AND locked_by = $2`,
      [[...ids], this.owner]);
  }

  private async fail(ids: readonly string[], error: unknown): Promise<void> {
    await this.ds.transaction(async (m) => {
      const dead = await rowsOf<DeadRow>(m,
        `UPDATE job_queue SET state = CASE WHEN retry_count < retry_limit THEN 'retry' ELSE 'failed' END,
            start_after = now() + retry_delay_seconds * interval '1 second', locked_until = NULL, locked_by = NULL,
            completed_at = CASE WHEN retry_count < retry_limit THEN NULL ELSE now() END, output = $3::jsonb
          WHERE id = ANY($1::text[]) AND state = 'active' AND locked_by = $2
          RETURNING id, state, dead_letter, data, output`,
        [[...ids], this.owner, JSON.stringify(errorOutput(error))]);
      await this.buryDead(m, dead);
    });
  }

  private async release(ids: readonly string[]): Promise<void> {
    await rowsOf(this.ds,
      `UPDATE job_queue SET state = 'retry', start_after = now(), locked_until = NULL, locked_by = NULL
        WHERE id = ANY($1::text[]) AND state = 'active' AND locked_by = $2`,
      [[...ids], this.owner]);
  }

  private async buryDead(m: Queryable, rows: readonly DeadRow[]): Promise<void> {
    const dead = rows.filter((r) => r.state === "failed" && r.dead_letter);
    if (dead.length === 0) return;
    const v = valuesList(dead.map((r) => {
      const s = this.settings.get(r.dead_letter as string) ?? { retryLimit: 2, retryDelaySeconds: 0, leaseSeconds: 60 };
      return [randomUUID(), r.dead_letter, JSON.stringify(r.data ?? null), s.retryLimit, s.retryDelaySeconds, s.leaseSeconds, JSON.stringify(r.output ?? null)];
    }), ["text", "text", "jsonb", "int", "int", "int", "jsonb"]);
    await rowsOf(m,
      `INSERT INTO job_queue (id, queue, data, retry_limit, retry_delay_seconds, lease_seconds, output, state, start_after, created_at)
       SELECT v.*, 'created', now(), now() FROM (VALUES ${v.sql}) AS v(id, queue, data, retry_limit, retry_delay_seconds, lease_seconds, output)`,
      v.params);
    for (const q of new Set(dead.map((r) => r.dead_letter as string))) this.consumers.wake(q);
  }
}
