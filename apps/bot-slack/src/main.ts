import { serve } from "@hono/node-server";
import { serveProcessMetrics } from "@svc/metrics";
import { botDataDirInUseLine } from "@svc/persistence";
import { parseConfig } from "./config.js";
import { buildContainer } from "./container.js";

let config;
try {
  config = parseConfig(process.env);
} catch (e) {
  process.stderr.write(`svc Slack bot: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
}
const cfg = config;
await serveProcessMetrics(process.env, "svc Slack bot");
const runtime = await buildContainer(cfg, {}).catch((e: unknown) => {
  const inUse = botDataDirInUseLine(cfg.SVC_DATA_DIR, e);
  if (!inUse) throw e;
  process.stderr.write(`${inUse}\n`);
  process.exit(1);
});
const { kernel } = runtime.app;
// Learning periods end on time even in a quiet channel.
const timer = setInterval(() => void kernel.tick().catch((e: unknown) => console.error("tick failed", e)), 30_000);
const server = serve({ fetch: runtime.http.app.fetch, port: cfg.PORT, hostname: cfg.HOST }, (info) => {
  console.log(`svc Slack bot: storage ${cfg.DATABASE_URL ? "postgresql" : `pglite:${cfg.SVC_DATA_DIR}`}; listening on ${cfg.HOST}:${info.port} (POST /slack/events, GET /slack/install)`);
});
const stop = (): void => {
  clearInterval(timer);
  server.close(() => void runtime.http.idle().then(() => runtime.close()));
};
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
