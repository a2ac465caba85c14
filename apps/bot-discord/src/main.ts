import { configOrExit } from "@svc/runtime";
import { parseConfig } from "./config.js";

// One clear line, not a stack trace: the usual first run has no token yet (docs/bots/discord.md).
const config = configOrExit("svc Discord bot", parseConfig);

// Loaded only once the configuration is known to be good: a missing token answers at once.
const [{ createLogger, startFailureLine, storageLabel }, { serve }, { systemClock }, { botDataDirInUseLine }, { buildContainer }, { createInteractionsEndpoint }, { logInAndRegister }, { serveProcessMetrics }] = await Promise.all([
  import("@svc/runtime"),
  import("@hono/node-server"),
  import("@svc/bot-kernel"),
  import("@svc/persistence"),
  import("./container.js"),
  import("./interactions-endpoint.js"),
  import("./startup.js"),
  import("@svc/metrics"),
]);
const { environment } = await import("@svc/runtime");
await serveProcessMetrics(environment(), "svc Discord bot");

const logger = createLogger(config.LOG_LEVEL, { app: "bot-discord" });
const runtime = await buildContainer(config, { onError: (err) => logger.error({ err }, "discord event failed") }).catch((e: unknown) => {
  // Another process on the data directory, or a database that cannot be opened: one line, exit 1.
  process.stderr.write(`${botDataDirInUseLine(config.SVC_DATA_DIR, e) ?? startFailureLine("svc Discord bot", e, config)}\n`);
  process.exit(1);
});
const { app } = runtime;
logger.info({ storage: storageLabel(config) }, "svc Discord bot starting");

// Lockdowns and learning periods end on time even in a quiet server.
const timer = setInterval(() => void app.kernel.tick().catch((err: unknown) => logger.error({ err }, "tick failed")), 30_000);

const failure = await logInAndRegister(app, config.DISCORD_GUILD_ID);
if (failure) {
  clearInterval(timer);
  await runtime.close().catch(() => undefined);
  process.stderr.write(`${failure}\n`);
  process.exit(1);
}
logger.info({ user: app.client.user?.tag, commands: config.DISCORD_GUILD_ID ? `server ${config.DISCORD_GUILD_ID}` : "global" }, "svc Discord bot logged in; slash commands registered");

// Optional: slash commands over HTTP (set the Interactions Endpoint URL in the Developer Portal
// to this server's public HTTPS address + DISCORD_INTERACTIONS_PATH). Scanning still uses the gateway.
const server = config.DISCORD_PUBLIC_KEY
  ? serve({
      fetch: createInteractionsEndpoint({ publicKey: config.DISCORD_PUBLIC_KEY, path: config.DISCORD_INTERACTIONS_PATH, clock: systemClock, handle: (i) => app.handleHttpInteraction(i) }).fetch,
      port: config.PORT,
    })
  : null;
if (server) logger.info({ port: config.PORT, path: config.DISCORD_INTERACTIONS_PATH }, "interactions endpoint listening");

const stop = (): void => {
  clearInterval(timer);
  if (server) server.close(() => void runtime.close());
  else void runtime.close();
};
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
