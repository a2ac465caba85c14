import { serve } from "@hono/node-server";
import { serveProcessMetrics } from "@svc/metrics";
import { botDataDirInUseLine } from "@svc/persistence";
import { configOrExit, createLogger, environment, startFailureLine, storageLabel } from "@svc/runtime";
import { ALLOWED_UPDATES, registerCommands } from "./bot.js";
import { parseConfig } from "./config.js";
import { buildContainer } from "./container.js";
import { startupStep } from "./startup.js";
import { createWebhookApp } from "./webhook.js";

const config = configOrExit("svc Telegram bot", parseConfig);
const log = createLogger(config.LOG_LEVEL, { app: "bot-telegram" });
await serveProcessMetrics(environment(), "svc Telegram bot");
// PostgreSQL when DATABASE_URL is set, else embedded PGlite under SVC_DATA_DIR (migrated on open).
// Screening is the API's composition on the same database: imported intel, moderated reports, the graph.
const runtime = await buildContainer(config, { onError: (err) => log.error({ err }, "telegram update failed") }).catch((e: unknown) => {
  // Another process on the data directory, or a database that cannot be opened: one line, exit 1.
  process.stderr.write(`${botDataDirInUseLine(config.SVC_DATA_DIR, e) ?? startFailureLine("svc Telegram bot", e, config)}\n`);
  process.exit(1);
});
const { bot } = runtime.app;
log.info({ storage: storageLabel(config) }, "svc Telegram bot starting");

// Lockdowns and learning periods end on time even in a quiet chat; calls Telegram asked to
// wait for (429) go out soon after their wait.
const timer = setInterval(() => void runtime.app.tick().catch((err: unknown) => log.error({ err }, "tick failed")), 5_000);

/** A start-up call that must succeed: on failure, one line (no stack trace, no token) and exit 1. */
async function mustSucceed(method: string, call: () => Promise<unknown>): Promise<void> {
  const failure = await startupStep(method, call, config);
  if (!failure) return;
  clearInterval(timer);
  await runtime.close().catch(() => undefined);
  process.stderr.write(`${failure}\n`);
  process.exit(1);
}

// One call without retries first: a wrong token or no route to the Bot API is said at once
// (grammY's own start-up retries network errors silently, for ever).
await mustSucceed("getMe", () => bot.api.getMe());

// Pre-selects the two rights the bot needs when an admin adds it (delete messages, ban users).
// A convenience only: a failure here must not keep the bot from starting.
await bot.api.setMyDefaultAdministratorRights({
  rights: {
    can_delete_messages: true,
    can_restrict_members: true,
    is_anonymous: false,
    can_manage_chat: false,
    can_manage_video_chats: false,
    can_promote_members: false,
    can_change_info: false,
    can_invite_users: false,
    can_post_stories: false,
    can_edit_stories: false,
    can_delete_stories: false,
    can_send_welcome_messages: false,
  },
}).catch((err: unknown) => log.warn({ err }, "could not set default administrator rights"));

// The command menus users see when they type "/": a convenience, like the rights above.
await registerCommands(bot.api).catch((err: unknown) => log.warn({ err }, "could not set the command menus"));

if (config.TELEGRAM_MODE === "webhook") {
  const secret = config.TELEGRAM_WEBHOOK_SECRET as string;
  const app = createWebhookApp(bot, secret, config.TELEGRAM_WEBHOOK_PATH);
  const url = config.TELEGRAM_WEBHOOK_URL;
  if (url) await mustSucceed("setWebhook", () => bot.api.setWebhook(url, { secret_token: secret, allowed_updates: [...ALLOWED_UPDATES] }));
  const server = serve({ fetch: app.fetch, port: config.PORT });
  log.info({ port: config.PORT, path: config.TELEGRAM_WEBHOOK_PATH }, "svc Telegram bot: webhook listening");
  const stop = (): void => {
    clearInterval(timer);
    server.close(() => void runtime.close());
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
} else {
  // A webhook left over from webhook mode would swallow the updates long polling waits for.
  await mustSucceed("deleteWebhook", () => bot.api.deleteWebhook());
  const stop = (): void => {
    clearInterval(timer);
    // bot.start() resolves once polling has stopped; the database closes after that (below).
    void bot.stop();
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  log.info("svc Telegram bot: long polling");
  // Polling ends with an error only on a refusal, e.g. 409 when another process polls with this token.
  await mustSucceed("getUpdates", () => bot.start({ allowed_updates: [...ALLOWED_UPDATES] }));
  await runtime.close();
}
