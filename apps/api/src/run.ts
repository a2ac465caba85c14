// The API itself, loaded by main.ts once V8's young generation is held small (decision 0099).
import { collectStartGarbage } from "./start-garbage.js";
import { youngGenerationMayGrow } from "./young-generation.js";
import { resolve } from "node:path";
import { serve } from "@hono/node-server";
import { dataDirInUseCause, heldDataDirLock } from "@svc/persistence";
import { configOrExit, createEmbeddedDatabaseApart, listenFailureLine, loadConfig, startFailureLine, storageLabel } from "@svc/runtime";
import { bootstrapAdmin, buildRuntime, createApp, drainHttpServer, startEmbeddedWorker, tuneHttpServer } from "@svc/server";

/** On SIGTERM, requests in flight get this long to finish; then jobs in flight get WORKER_GRACE_MS. */
const HTTP_GRACE_MS = 20_000;
const WORKER_GRACE_MS = 30_000;

/** `npm start`: the API on the embedded default (PGlite under SVC_DATA_DIR) or PostgreSQL (DATABASE_URL). */
/** SVC_DATA_DIR as configured, for the one-line refusal below. */
let dataDirShown: string | undefined;
/** DATABASE_URL as configured, for the one-line refusal of a database that cannot be opened. */
let databaseUrl: string | undefined;

async function main(): Promise<void> {
  const config = configOrExit("svc API", loadConfig);
  dataDirShown = config.SVC_DATA_DIR;
  databaseUrl = config.DATABASE_URL;
  // A first start on the embedded default: the database is made by a process of its own, whose
  // leftovers go with it; this one then opens it as on any later start (decision 0100).
  await createEmbeddedDatabaseApart(config);
  const runtime = await buildRuntime(config);
  const { services } = runtime;
  const boot = await bootstrapAdmin(services, config.SVC_BOOTSTRAP_KEY);
  if (boot.key) {
    // Printed once, for the human at the terminal, on stderr: stdout is the JSON log stream
    // (collected and shipped), and the key must never enter it. Only its hash is stored.
    process.stderr.write(`\nAdmin API key (shown once, keep it safe):\n\n  ${boot.key}\n\nTry: curl -H "X-API-Key: ${boot.key}" -H "content-type: application/json" -d '{"entity_value":"paypa1.com"}' http://localhost:${config.PORT}/v1/screen\n\n`);
  }
  // Embedded default: the worker runs in this process; in server mode it is its own process.
  const worker = config.DATABASE_URL ? null : await startEmbeddedWorker(runtime, config);
  const audit = runtime.auditKeys;
  if (audit.created && audit.source !== "memory") services.logger.warn({ file: audit.source, key_id: audit.keyring.keyId }, "audit key created: back this file up with the database; without it the audit chain cannot be verified");
  const app = createApp(services);
  // What loading and opening left behind, collected before serving: an idle API would keep it.
  collectStartGarbage();
  const server = serve({ fetch: app.fetch, port: config.PORT, hostname: config.HOST }, (info) => {
    services.logger.info({ port: info.port, storage: storageLabel(config) }, "svc API listening");
    // A second process on the same data directory is told where this one serves (`--url`).
    if (!config.DATABASE_URL) heldDataDirLock(resolve(config.SVC_DATA_DIR, "pgdata"))?.note(`http://${localHost(config.HOST)}:${info.port}`);
    youngGenerationMayGrow();
  });
  tuneHttpServer(server);
  // A port in use or an address this machine lacks: one line, the database closed, exit 1.
  server.once("error", (e: unknown) => {
    process.stderr.write(`${listenFailureLine("svc API", e, config)}\n`);
    void Promise.resolve(worker?.stop(0)).then(() => runtime.close()).catch(() => undefined).finally(() => process.exit(1));
  });
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    services.logger.info({ signal }, "shutting down: finishing requests in flight");
    // A last resort if a step hangs (e.g. the database is gone).
    setTimeout(() => {
      services.logger.error("did not stop in time; exiting");
      process.exit(1);
    }, HTTP_GRACE_MS + WORKER_GRACE_MS + 15_000).unref();
    try {
      // In order: stop accepting and answer every request already accepted (their writes
      // commit), then stop taking jobs and finish those in flight, then close the database.
      const inTime = await drainHttpServer(server, HTTP_GRACE_MS);
      if (!inTime) services.logger.warn({ grace_ms: HTTP_GRACE_MS }, "requests still running after the grace period were cut");
      await worker?.stop(WORKER_GRACE_MS);
      await runtime.close();
      services.logger.info("stopped");
      process.exit(0);
    } catch (e) {
      services.logger.error({ err: e }, "stopped with an error");
      process.exit(1);
    }
  };
  process.once("SIGTERM", () => void stop("SIGTERM"));
  process.once("SIGINT", () => void stop("SIGINT"));
}

/** How a process on this machine reaches a server bound to `host` (any address: loopback). */
function localHost(host: string): string {
  if (host === "0.0.0.0" || host === "::") return "127.0.0.1";
  return host.includes(":") ? `[${host}]` : host;
}

main().catch((e: unknown) => {
  // Another process has the embedded database open (PGlite is one process's database): one line, untouched data.
  const inUse = dataDirInUseCause(e);
  if (inUse) {
    const who = inUse.pid > 0 ? ` (pid ${inUse.pid})` : "";
    process.stderr.write(`svc: the data directory ${dataDirShown ?? inUse.dir} is in use by another svc process${who}${inUse.url ? ` serving ${inUse.url}` : ""}; stop it, or give this server another SVC_DATA_DIR (or DATABASE_URL)\n`);
    process.exit(1);
  }
  process.stderr.write(`${startFailureLine("svc", e, { DATABASE_URL: databaseUrl })}\n`);
  process.exit(1);
});

