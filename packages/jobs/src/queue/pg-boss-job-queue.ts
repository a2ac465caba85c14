import type { JobBatchHandler, JobQueue, QueuedJob, QueueSettings, SendOptions, WorkOptions } from "@svc/server-ports";
import pg from "pg";
import PgBoss from "pg-boss";
import type { EntityManager } from "typeorm";
import { silentLog, type LogSink } from "../log.js";
import { rowsOf } from "../sql.js";
import { shiftParams, type ComposableSend, type ComposedSend } from "./composable.js";
import { Consumers, errorOutput, type QueueBackend } from "./consumers.js";
import type { QueueDepthReader } from "./depth.js";

export interface PgBossJobQueueOptions {
  readonly connectionString: string;
  readonly logger?: LogSink;
  /** pg-boss's schema; default `pgboss`. */
  readonly schema?: string;
  /** Connections of pg-boss's own pool; default 4. */
  readonly maxConnections?: number;
  /**
   * Run pg-boss's maintenance (expiring the jobs of dead workers, archiving) in this process.
   * Workers do; API replicas that only send do not. Default false.
   */
  readonly supervise?: boolean;
  /** How often maintenance looks for expired leases; default 5 s. */
  readonly maintenanceIntervalSeconds?: number;
}

/** Sent inside the enqueuing transaction, so PostgreSQL delivers it at commit: consumers wake at once. */
const CHANNEL = "svc_jobs";

/**
 * The JobQueue on PostgreSQL: pg-boss 10 (SKIP LOCKED fetches, `expireInSeconds` as the lease,
 * retries, dead-letter queues) in its own schema of the application database. `send` inside a
 * TypeORM transaction goes through pg-boss's `db` option, so the job commits with the caller's
 * rows. Consumers wake on LISTEN/NOTIFY and poll as a fallback.
 */
export class PgBossJobQueue implements JobQueue<EntityManager>, ComposableSend, QueueDepthReader {
  readonly boss: PgBoss;
  private readonly log: LogSink;
  private readonly consumers: Consumers;
  private listener: pg.Client | null = null;
  private listening = false;
  private stopped = false;

  constructor(private readonly options: PgBossJobQueueOptions) {
    this.log = options.logger ?? silentLog;
    this.boss = new PgBoss({
      connectionString: options.connectionString,
      schema: options.schema ?? "pgboss",
      max: options.maxConnections ?? 4,
      application_name: "svc-jobs",
      supervise: options.supervise ?? false,
      schedule: false,
      migrate: true,
      maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 5,
    });
    this.boss.on("error", (e: Error) => this.log.error({ err: e }, "pg-boss error"));
    const backend: QueueBackend = {
      fetch: async (q, n) => {
        const jobs = await this.boss.fetch<unknown>(q, { batchSize: n, includeMetadata: true });
        return jobs.map((j): QueuedJob => ({ id: j.id, queue: j.name, data: j.data, retryCount: j.retryCount, retryLimit: j.retryLimit }));
      },
      complete: async (q, ids) => void (await this.boss.complete(q, [...ids])),
      fail: async (q, ids, e) => void (await this.failMany(q, [...ids], errorOutput(e))),
      release: async (q, ids) => void (await this.failMany(q, [...ids], { message: "worker shut down before finishing" })),
    };
    this.consumers = new Consumers(backend, this.log);
  }

  /** pg-boss takes (name, ids[], data) at run time; its typings only list (name, id, data). */
  private failMany(queue: string, ids: string[], data: object): Promise<unknown> {
    return (this.boss.fail as unknown as (q: string, i: string[], d: object) => Promise<unknown>)(queue, ids, data);
  }

  /** Opens pg-boss's pool and installs or migrates its schema (once, under an advisory lock). */
  async start(): Promise<this> {
    await this.boss.start();
    return this;
  }

  async createQueue(name: string, s: QueueSettings): Promise<void> {
    const settings = { policy: "standard" as const, retryLimit: s.retryLimit, retryDelay: s.retryDelaySeconds, retryBackoff: false, expireInSeconds: s.leaseSeconds, ...(s.deadLetter ? { deadLetter: s.deadLetter } : {}) };
    await this.boss.createQueue(name, { name, ...settings });
    // The settings of the process started last win (create does nothing for an existing queue).
    await this.boss.updateQueue(name, { name, ...settings });
  }

  async send<T>(queue: string, data: T, options: SendOptions<EntityManager> = {}): Promise<string> {
    const db = options.tx ? executorOf(options.tx) : this.boss.getDb();
    const id = await this.boss.send(queue, (data ?? {}) as object, { db, ...(options.startAfter ? { startAfter: options.startAfter } : {}) });
    if (!id) throw new Error(`pg-boss did not accept a job for queue ${queue} (does the queue exist?)`);
    await db.executeSql(`SELECT pg_notify($1, $2)`, [CHANNEL, queue]);
    return id;
  }

  /** pg-boss's own INSERT for the job (captured from `send` through its `db` option), to embed in another statement. */
  async sendStatement(queue: string, data: unknown, offset: number): Promise<ComposedSend> {
    let captured: { text: string; values: unknown[] } | null = null;
    await this.boss.send(queue, (data ?? {}) as object, {
      db: { executeSql: async (text: string, values: unknown[]) => ((captured = { text, values }), { rows: [{ id: "captured" }] }) },
    });
    const c = captured as { text: string; values: unknown[] } | null;
    const text = c?.text.trim() ?? "";
    if (!c || !/^INSERT\s/i.test(text) || !/\sRETURNING\s+id$/i.test(text)) throw new Error("pg-boss's insert statement has an unexpected shape");
    const at = offset + c.values.length;
    return {
      sql: shiftParams(c.text, offset),
      params: [...c.values, CHANNEL, queue],
      notify: `pg_notify($${at + 1}, $${at + 2})`,
      afterCommit: () => {},
    };
  }

  async work<T>(queue: string, options: WorkOptions, handler: JobBatchHandler<T>): Promise<void> {
    await this.listen();
    this.consumers.add(queue, options, handler);
  }

  /** Jobs waiting (created or retry) and active, per queue, through pg-boss's own count. */
  async depth(queues: readonly string[]): Promise<{ queue: string; state: string; count: number }[]> {
    const out: { queue: string; state: string; count: number }[] = [];
    for (const queue of queues) {
      const waiting = (await this.boss.getQueueSize(queue)) ?? 0;
      const notDone = (await this.boss.getQueueSize(queue, { before: "completed" })) ?? 0;
      out.push({ queue, state: "waiting", count: waiting }, { queue, state: "active", count: Math.max(0, notDone - waiting) });
    }
    return out;
  }

  async stop(options: { timeoutMs?: number } = {}): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    await this.consumers.stop(options.timeoutMs ?? 30_000);
    const l = this.listener;
    this.listener = null;
    await l?.end().catch(() => {});
    await this.boss.stop({ graceful: false, close: true, wait: true });
  }

  private async listen(): Promise<void> {
    if (this.listening) return;
    this.listening = true;
    const connect = async (): Promise<void> => {
      if (this.stopped) return;
      const client = new pg.Client({ connectionString: this.options.connectionString, application_name: "svc-jobs-listen" });
      client.on("notification", (n) => {
        if (n.payload) this.consumers.wake(n.payload);
      });
      client.on("error", (e) => {
        this.log.warn({ err: e }, "job notifications lost; reconnecting (polling meanwhile)");
        if (this.listener === client) this.listener = null;
        client.end().catch(() => {});
        setTimeout(() => void connect().catch(() => {}), 1_000).unref();
      });
      try {
        await client.connect();
        await client.query(`LISTEN ${CHANNEL}`);
        if (this.stopped) await client.end();
        else this.listener = client;
      } catch (e) {
        this.log.warn({ err: e }, "cannot listen for job notifications; retrying (polling meanwhile)");
        await client.end().catch(() => {});
        setTimeout(() => void connect().catch(() => {}), 1_000).unref();
      }
    };
    await connect();
  }
}

/** pg-boss's `db` option over a TypeORM transaction. */
export const executorOf = (m: EntityManager): PgBoss.Db => ({
  executeSql: async (text: string, values: unknown[]) => ({ rows: await rowsOf(m, text, values ?? []) }),
});
