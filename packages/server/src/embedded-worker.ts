import { startWorker, transactionScoped, type RunningWorker } from "@svc/jobs";
import { startFeedSchedule, TypeOrmAccountDeletions, TypeOrmCheckRepository, TypeOrmServerSecrets } from "@svc/persistence";
import type { Config } from "@svc/runtime";
import type { Runtime } from "./container.js";

/**
 * The worker inside the API process, for the embedded default (PGlite is one process's
 * database). In server mode the worker runs as its own process: `npm run worker` (`node apps/worker/dist/main.js`).
 */
export async function startEmbeddedWorker(runtime: Runtime, config: Config, options: { pollIntervalMs?: number } = {}): Promise<RunningWorker> {
  const s = runtime.services;
  const insightsKey = await new TypeOrmServerSecrets(runtime.dataSource).get("insights", s.clock.now());
  const deletions = new TypeOrmAccountDeletions(runtime.dataSource);
  const auditKeys = runtime.auditKeys.keyring;
  const pauseMs = config.SVC_WORKER_PAUSE_MS;
  const worker = await startWorker({
    ds: runtime.dataSource,
    queue: runtime.queue,
    screening: s.screening,
    clock: s.clock,
    ids: s.ids,
    logger: s.logger,
    // The verdict's audit record is written inside the worker's transaction, with its outbox row.
    checksIn: (m) => new TypeOrmCheckRepository(transactionScoped(m), auditKeys),
    allowedCidrs: config.SVC_WEBHOOK_ALLOWED_CIDRS,
    // One process, one database session: small batches keep HTTP answers flowing between them.
    batchSize: 20,
    concurrency: 1,
    ...(options.pollIntervalMs ? { pollIntervalMs: options.pollIntervalMs } : {}),
    relay: { maxInFlight: 64, singleProcess: true },
    ...(pauseMs > 0 ? { pauseMs } : {}),
    purgeAccount: (id) => deletions.purge(id, insightsKey, s.clock.now()),
  });
  // Live feeds on a schedule: off unless both SVC_FEEDS and SVC_FEED_SYNC_MINUTES are set.
  if (config.SVC_FEEDS.length === 0 || config.SVC_FEED_SYNC_MINUTES === 0) return worker;
  s.logger.info({ feeds: config.SVC_FEEDS.map((f) => f.name), every_minutes: config.SVC_FEED_SYNC_MINUTES }, "live feeds on");
  const feeds = startFeedSchedule(runtime.feeds, {
    everyMs: config.SVC_FEED_SYNC_MINUTES * 60_000,
    onError: (e) => s.logger.error({ err: e }, "feed sync failed"),
  });
  return {
    relay: worker.relay,
    async stop(timeoutMs) {
      await feeds.stop();
      await worker.stop(timeoutMs);
    },
  };
}

