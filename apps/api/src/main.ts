import { serve } from "@hono/node-server";
import { createApp } from "./app.js";
import { bootstrapAdmin } from "./bootstrap.js";
import { ConfigError, loadConfig } from "./config.js";
import { buildRuntime, T } from "./container.js";
import { startEmbeddedWorker } from "./embedded-worker.js";
import { tuneHttpServer } from "./http-server.js";

/** `npm start`: the API on the embedded default (PGlite under SVC_DATA_DIR) or PostgreSQL (DATABASE_URL). */
async function main(): Promise<void> {
  const config = loadConfig();
  const runtime = await buildRuntime(config);
  const { services } = runtime;
  const boot = await bootstrapAdmin(services, config.SVC_BOOTSTRAP_KEY);
  if (boot.key) {
    // Printed once, to the terminal only (not the log stream); only its hash is stored.
    process.stdout.write(`\nAdmin API key (shown once, keep it safe):\n\n  ${boot.key}\n\nTry: curl -H "X-API-Key: ${boot.key}" -H "content-type: application/json" -d '{"entity_value":"paypa1.com"}' http://localhost:${config.PORT}/v1/screen\n\n`);
  }
  // Embedded default: the worker runs in this process; in server mode it is its own process.
  const worker = config.DATABASE_URL ? null : await startEmbeddedWorker(runtime, config);
  const audit = runtime.container.get(T.AuditKeys);
  if (audit.created && audit.source !== "memory") services.logger.warn({ file: audit.source, key_id: audit.keyring.keyId }, "audit key created: back this file up with the database; without it the audit chain cannot be verified");
  const app = createApp(services);
  const server = serve({ fetch: app.fetch, port: config.PORT, hostname: config.HOST }, (info) => {
    services.logger.info({ port: info.port, storage: config.DATABASE_URL ? "postgresql" : `pglite:${config.SVC_DATA_DIR}` }, "svc API listening");
  });
  tuneHttpServer(server);
  const stop = async (signal: string) => {
    services.logger.info({ signal }, "shutting down");
    server.close();
    // Stop taking jobs, finish those in flight (≤ 30 s), then close the database.
    await worker?.stop(30_000);
    await runtime.close();
    process.exit(0);
  };
  process.once("SIGTERM", () => void stop("SIGTERM"));
  process.once("SIGINT", () => void stop("SIGINT"));
}

main().catch((e: unknown) => {
  if (e instanceof ConfigError) {
    process.stderr.write(`${e.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`svc failed to start: ${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
