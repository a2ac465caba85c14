import { serve } from "@hono/node-server";
import { serveProcessMetrics } from "@svc/metrics";
import { botDataDirInUseLine } from "@svc/persistence";
import { configOrExit, environment, startFailureLine, storageLabel } from "@svc/runtime";
import { listenAddress, parseConfig } from "./config.js";
import { buildRuntime } from "./container.js";

const config = configOrExit("svc WhatsApp bot", parseConfig);
await serveProcessMetrics(environment(), "svc WhatsApp bot");
const runtime = await buildRuntime(config, {}).catch((e: unknown) => {
  // Another process on the data directory, or a database that cannot be opened: one line, exit 1.
  process.stderr.write(`${botDataDirInUseLine(config.SVC_DATA_DIR, e) ?? startFailureLine("svc WhatsApp bot", e, config)}\n`);
  process.exit(1);
});
const { log, app } = runtime;

// Lockdowns and learning periods end on time even in a quiet group; old message ids are forgotten.
const timer = setInterval(() => {
  void app.kernel.tick().catch((e: unknown) => log.error({ err: e }, "tick failed"));
  void runtime.prune().catch((e: unknown) => log.error({ err: e }, "pruning seen events failed"));
}, 30_000);

const server = serve({ fetch: runtime.web.fetch, ...listenAddress(config) }, (info) => {
  log.info({ host: config.HOST, port: info.port, path: config.WHATSAPP_WEBHOOK_PATH, storage: storageLabel(config) }, "svc WhatsApp bot: webhook listening");
});

const stop = (): void => {
  clearInterval(timer);
  server.close(() => void runtime.close());
};
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
