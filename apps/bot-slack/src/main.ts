import { serve } from "@hono/node-server";
import { serveProcessMetrics } from "@svc/metrics";
import { botDataDirInUseLine } from "@svc/persistence";
import { configOrExit, createLogger, environment, startFailureLine, storageLabel } from "@svc/runtime";
import { parseConfig } from "./config.js";
import { buildContainer } from "./container.js";

const cfg = configOrExit("svc Slack bot", parseConfig);
const log = createLogger(cfg.LOG_LEVEL, { app: "bot-slack" });
await serveProcessMetrics(environment(), "svc Slack bot");
const runtime = await buildContainer(cfg, { onError: (err) => log.error({ err }, "slack event failed"), onWarning: (message) => log.warn(message) }).catch((e: unknown) => {
  // Another process on the data directory, or a database that cannot be opened: one line, exit 1.
  process.stderr.write(`${botDataDirInUseLine(cfg.SVC_DATA_DIR, e) ?? startFailureLine("svc Slack bot", e, cfg)}\n`);
  process.exit(1);
});
const { kernel } = runtime.app;
// Learning periods end on time even in a quiet channel.
const timer = setInterval(() => void kernel.tick().catch((err: unknown) => log.error({ err }, "tick failed")), 30_000);
const server = serve({ fetch: runtime.http.app.fetch, port: cfg.PORT, hostname: cfg.HOST }, (info) => {
  log.info({ storage: storageLabel(cfg), host: cfg.HOST, port: info.port, routes: ["POST /slack/events", "GET /slack/install"] }, `svc Slack bot listening on ${cfg.HOST}:${info.port}`);
});
const stop = (): void => {
  clearInterval(timer);
  server.close(() => void runtime.http.idle().then(() => runtime.close()));
};
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
