import { randomIds, systemClock, type Clock } from "@svc/core";
import type { JobQueue } from "@svc/server-ports";
import { startWorker, transactionScoped, type Deliverer, type Resolver, type RunningWorker } from "@svc/jobs";
import {
  FeedSync, HmacAuditKeyring, startFeedSchedule, type FeedSchedule, TypeOrmCheckRepository, TypeOrmAccountDeletions, TypeOrmServerSecrets,
} from "@svc/persistence";
import type { Logger } from "pino";
import type { DataSource, EntityManager } from "typeorm";
import type { WorkerConfig } from "./config/worker.js";
import { openJobQueue } from "./queue.js";
import { reputationProviders, screeningDeps } from "./screening.js";
import { openStorage } from "./storage.js";

export interface WorkerRuntime {
  readonly worker: RunningWorker;
  readonly dataSource: DataSource;
  readonly queue: JobQueue<EntityManager>;
  /** The live-feed schedule, when SVC_FEEDS and SVC_FEED_SYNC_MINUTES are set. */
  readonly feeds: FeedSchedule | null;
  /** Stop taking work, finish what is in flight within the shutdown budget, close the database. */
  close(): Promise<void>;
}

/**
 * The worker's composition root (server mode): PostgreSQL through TypeORM for jobs, verdicts and
 * the outbox; pg-boss for the queue, with its maintenance (re-queueing the jobs of dead workers)
 * running here. Any number of these processes share the work.
 */
export async function buildWorker(config: WorkerConfig, logger: Logger, overrides: { clock?: Clock; resolve?: Resolver; deliverer?: Deliverer; feedsFirstAfterMs?: number } = {}): Promise<WorkerRuntime> {
  const clock = overrides.clock ?? systemClock;
  const ids = randomIds(clock);
  const storage = { DATABASE_URL: config.DATABASE_URL };
  const dataSource = await openStorage(storage, { poolSize: config.SVC_WORKER_CONCURRENCY + 4 });
  // pg-boss's maintenance (re-queueing the jobs of dead workers) runs in the workers.
  const queue = await openJobQueue(storage, dataSource, {
    logger,
    supervise: true,
    maintenanceIntervalSeconds: config.SVC_JOB_MAINTENANCE_SECONDS,
    maxConnections: config.SVC_WORKER_CONCURRENCY + 2,
    createQueues: false,
  });
  // The API's screening composition, with the same outside providers sharing their database cache.
  // Lookups of the jobs screened at the same time coalesce into one statement each
  // (docs/decisions/0008-coalesced-statements.md).
  const screening = screeningDeps(dataSource, {
    clock, ids,
    sourceTimeoutMs: config.SVC_SOURCE_TIMEOUT_MS,
    providers: reputationProviders(config.providers, dataSource, clock),
  });
  const auditKeys = new HmacAuditKeyring(config.SVC_AUDIT_KEY, config.SVC_AUDIT_PREVIOUS_KEYS);
  // Account purges anonymise what is kept under the `insights` key (shared with the API through the database).
  const insightsKey = await new TypeOrmServerSecrets(dataSource).get("insights", clock.now());
  const deletions = new TypeOrmAccountDeletions(dataSource);
  const worker = await startWorker({
    ds: dataSource,
    queue,
    screening,
    clock,
    ids,
    logger,
    checksIn: (m) => new TypeOrmCheckRepository(transactionScoped(m), auditKeys),
    allowedCidrs: config.SVC_WEBHOOK_ALLOWED_CIDRS,
    batchSize: config.SVC_WORKER_BATCH_SIZE,
    concurrency: config.SVC_WORKER_CONCURRENCY,
    leaseSeconds: config.SVC_JOB_LEASE_SECONDS,
    relay: { maxInFlight: config.SVC_WEBHOOK_CONCURRENCY },
    ...(overrides.resolve ? { resolve: overrides.resolve } : {}),
    ...(overrides.deliverer ? { deliverer: overrides.deliverer } : {}),
    ...(config.SVC_WORKER_PAUSE_MS ? { pauseMs: config.SVC_WORKER_PAUSE_MS } : {}),
    purgeAccount: (id) => deletions.purge(id, insightsKey, clock.now()),
  });
  const feeds = startFeeds(config, dataSource, clock, logger, overrides.feedsFirstAfterMs);
  return {
    worker, dataSource, queue, feeds,
    async close() {
      await feeds?.stop();
      await worker.stop(config.SVC_WORKER_SHUTDOWN_SECONDS * 1000);
      await dataSource.destroy();
    },
  };
}

/** Live feeds on a schedule (off unless both SVC_FEEDS and SVC_FEED_SYNC_MINUTES are set). */
function startFeeds(config: WorkerConfig, ds: DataSource, clock: Clock, logger: Logger, firstAfterMs?: number): FeedSchedule | null {
  if (config.SVC_FEEDS.length === 0 || config.SVC_FEED_SYNC_MINUTES === 0) return null;
  const sync = new FeedSync(ds, config.SVC_FEEDS, { clock, log: (level, obj, msg) => logger[level](obj, msg) });
  logger.info({ feeds: config.SVC_FEEDS.map((f) => f.name), every_minutes: config.SVC_FEED_SYNC_MINUTES }, "live feeds on");
  return startFeedSchedule(sync, { everyMs: config.SVC_FEED_SYNC_MINUTES * 60_000, ...(firstAfterMs !== undefined ? { firstAfterMs } : {}), onError: (e) => logger.error({ err: e }, "feed sync failed") });
}
