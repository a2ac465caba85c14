import type { Clock, IdGenerator, ScreeningDeps, Screened } from "@svc/core";
import type { JobQueue } from "@svc/server-ports";
import { addQueueDepthSource } from "@svc/metrics";
import type { DataSource, EntityManager } from "typeorm";
import { ACCOUNT_PURGE_QUEUE, CHECK_QUEUE, createAccountPurgeQueue, createCheckQueues, DEAD_CHECK_QUEUE, type AccountPurgeJobData, type CheckJobData } from "../async-jobs/queues.js";
import { silentLog, type LogSink } from "../log.js";
import { isQueueDepthReader } from "../queue/depth.js";
import { createHttpDeliverer, type Deliverer } from "../webhooks/http-deliverer.js";
import { WebhookRelay, type RelayOptions } from "../webhooks/relay.js";
import { AddressPolicy, type Resolver } from "../webhooks/ssrf.js";
import { TypeOrmWebhookSecretStore } from "../webhooks/typeorm-webhook-secret-store.js";
import { checkJobHandler, deadCheckJobHandler, type CheckWorkerDeps } from "./check-worker.js";

export interface WorkerOptions {
  readonly ds: DataSource;
  readonly queue: JobQueue<EntityManager>;
  readonly screening: ScreeningDeps;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly checksIn: CheckWorkerDeps["checksIn"];
  readonly logger?: LogSink;
  /** SVC_WEBHOOK_ALLOWED_CIDRS. */
  readonly allowedCidrs?: string;
  readonly resolve?: Resolver;
  /** Jobs per transaction; default 50. */
  readonly batchSize?: number;
  /** Batches in flight; default 2. */
  readonly concurrency?: number;
  readonly pollIntervalMs?: number;
  /** The job lease (pg-boss `expireInSeconds`); default 30 s. */
  readonly leaseSeconds?: number;
  readonly deliveryTimeoutMs?: number;
  /** Replaces the HTTP deliverer (tests). */
  readonly deliverer?: Deliverer;
  readonly relay?: Partial<Omit<RelayOptions, "ds" | "secrets" | "deliverer" | "clock">>;
  readonly afterCommit?: (screened: readonly Screened[]) => void;
  readonly pauseMs?: number;
  /** Purges the account of a deletion request (idempotent: a request already purged is a no-op). */
  readonly purgeAccount?: (deletionId: string) => Promise<unknown>;
}

export interface RunningWorker {
  readonly relay: WebhookRelay;
  /** SIGTERM: stop taking jobs and webhooks, finish what is in flight within `timeoutMs` (30 s), release the rest. */
  stop(timeoutMs?: number): Promise<void>;
}

/** The asynchronous side: check jobs, their dead letters, webhook delivery, and account purges. */
export async function startWorker(o: WorkerOptions): Promise<RunningWorker> {
  const log = o.logger ?? silentLog;
  await createCheckQueues(o.queue, o.leaseSeconds ?? 30);
  const secrets = new TypeOrmWebhookSecretStore(o.ds);
  const deliverer = o.deliverer ?? createHttpDeliverer({ policy: new AddressPolicy(o.allowedCidrs ?? ""), ...(o.resolve ? { resolve: o.resolve } : {}), ...(o.deliveryTimeoutMs ? { timeoutMs: o.deliveryTimeoutMs } : {}) });
  const relay = new WebhookRelay({ ds: o.ds, secrets, deliverer, clock: o.clock, logger: log, ...o.relay });
  const deps: CheckWorkerDeps = {
    ds: o.ds, screening: o.screening, clock: o.clock, ids: o.ids, checksIn: o.checksIn, relay, logger: log,
    ...(o.afterCommit ? { afterCommit: o.afterCommit } : {}), ...(o.pauseMs ? { pauseMs: o.pauseMs } : {}),
  };
  const poll = o.pollIntervalMs ?? 1_000;
  await o.queue.work<CheckJobData>(CHECK_QUEUE, { batchSize: o.batchSize ?? 50, concurrency: o.concurrency ?? 2, pollIntervalMs: poll }, checkJobHandler(deps));
  await o.queue.work<CheckJobData>(DEAD_CHECK_QUEUE, { batchSize: 10, pollIntervalMs: Math.max(poll, 1_000) }, deadCheckJobHandler(deps));
  if (o.purgeAccount) {
    const purge = o.purgeAccount;
    await createAccountPurgeQueue(o.queue);
    await o.queue.work<AccountPurgeJobData>(ACCOUNT_PURGE_QUEUE, { batchSize: 1, pollIntervalMs: poll }, async (jobs) => {
      for (const j of jobs) await purge(j.data.deletion_id);
    });
  }
  relay.start();
  // Read at scrape time from the database the queue lives in (every worker reports the same depth).
  const queue = o.queue;
  const queues = [CHECK_QUEUE, DEAD_CHECK_QUEUE, ...(o.purgeAccount ? [ACCOUNT_PURGE_QUEUE] : [])];
  const removeDepth = isQueueDepthReader(queue) ? addQueueDepthSource(() => queue.depth(queues)) : () => undefined;
  let stopping: Promise<void> | null = null;
  return {
    relay,
    stop(timeoutMs = 30_000) {
      stopping ??= (async () => {
        removeDepth();
        const started = Date.now();
        await o.queue.stop({ timeoutMs });
        await relay.stop(Math.max(1_000, timeoutMs - (Date.now() - started)));
        if (!o.deliverer) deliverer.close();
      })();
      return stopping;
    },
  };
}
