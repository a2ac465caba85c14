import { serveProcessMetrics } from "@svc/metrics";
import { buildWorker, configOrExit, createLogger, environment, loadWorkerConfig, startFailureLine } from "@svc/runtime";

/**
 * `npm run worker`, deployed `node apps/worker/dist/main.js` (server mode, DATABASE_URL set): consumes asynchronous checks
 * and delivers their webhooks. SIGTERM/SIGINT: stop taking jobs, finish the ones in flight within
 * SVC_WORKER_SHUTDOWN_SECONDS (30), release the rest, exit 0.
 */
async function main(): Promise<void> {
  const config = configOrExit("svc worker", loadWorkerConfig);
  const logger = createLogger(config.LOG_LEVEL, { app: "worker" });
  const metrics = await serveProcessMetrics(environment(), "svc worker");
  const runtime = await buildWorker(config, logger);
  logger.info({ concurrency: config.SVC_WORKER_CONCURRENCY, batch: config.SVC_WORKER_BATCH_SIZE, lease_s: config.SVC_JOB_LEASE_SECONDS, ...(metrics ? { metrics: metrics.url } : {}) }, "svc worker started");
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "svc worker stopping: finishing jobs in flight");
    // A last resort if closing itself hangs (e.g. the database is gone).
    setTimeout(() => {
      logger.error("svc worker did not stop in time; exiting");
      process.exit(1);
    }, (config.SVC_WORKER_SHUTDOWN_SECONDS + 10) * 1000).unref();
    try {
      await runtime.close();
      logger.info("svc worker stopped");
      process.exit(0);
    } catch (e) {
      logger.error({ err: e }, "svc worker stopped with an error");
      process.exit(1);
    }
  };
  process.once("SIGTERM", () => void stop("SIGTERM"));
  process.once("SIGINT", () => void stop("SIGINT"));
}

main().catch((e: unknown) => {
  process.stderr.write(`${startFailureLine("svc worker", e, { DATABASE_URL: environment()["DATABASE_URL"] })}\n`);
  process.exit(1);
});
