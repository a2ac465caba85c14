import { z } from "zod";
import { ConfigError, environment, fields, issueLines, type Env } from "./load.js";

/**
 * Environment, parsed once at start-up. A bad value stops the process with a message naming
 * the variable (DESIGN §4), never a half-configured bot.
 */
const trimSlashes = (u: string): string => {
  let end = u.length;
  while (end > 0 && u[end - 1] === "/") end--;
  return u.slice(0, end);
};

export const TelegramEnvSchema = z
  .object({
    TELEGRAM_BOT_TOKEN: z.string({ error: (i) => (i.input === undefined ? "is not set: create a bot with @BotFather and set TELEGRAM_BOT_TOKEN to the token it gives" : undefined) }).regex(/^\d{1,20}:[\w-]{30,100}$/u, "must look like 123456:ABC… as given by BotFather"),
    /** Bot API server root: https://api.telegram.org by default, or a self-hosted Bot API server (http allowed for one on the same host). */
    TELEGRAM_API_ROOT: fields.httpUrl().transform(trimSlashes).optional(),
    TELEGRAM_MODE: z.enum(["webhook", "polling"]).default("polling"),
    // Telegram allows 1–256 characters of A-Z, a-z, 0-9, _ and -; fewer than 32 is guessable.
    TELEGRAM_WEBHOOK_SECRET: z.string().regex(/^[\w-]{32,256}$/u, "must be 32–256 characters of A-Z, a-z, 0-9, _ or -").optional(),
    /** Public HTTPS address of the webhook route; when set, the bot registers it with setWebhook at start. */
    TELEGRAM_WEBHOOK_URL: fields.httpsUrl().optional(),
    TELEGRAM_WEBHOOK_PATH: z.string().regex(/^\/[\w/-]{0,200}$/u).default("/telegram/webhook"),
    TELEGRAM_STARS_STARTER: z.coerce.number().int().min(1).max(100_000).default(1500),
    TELEGRAM_STARS_PRO: z.coerce.number().int().min(1).max(100_000).default(5000),
    /** PostgreSQL (server mode); without it the state lives in embedded PGlite under SVC_DATA_DIR/pgdata. */
    DATABASE_URL: fields.DATABASE_URL.optional(),
    /** Embedded PGlite's home (`pgdata` inside it), as the API's; `memory://` keeps everything in memory (tests). */
    SVC_DATA_DIR: fields.SVC_DATA_DIR,
    /** Makes the first API key deterministic (shared with the API); its key is accepted by /connect as pro. */
    SVC_BOOTSTRAP_KEY: fields.SVC_BOOTSTRAP_KEY.optional(),
    PORT: fields.port(8080),
    LOG_LEVEL: fields.LOG_LEVEL,
  })
  .superRefine((c, ctx) => {
    if (c.TELEGRAM_MODE === "webhook" && !c.TELEGRAM_WEBHOOK_SECRET) {
      ctx.addIssue({ code: "custom", path: ["TELEGRAM_WEBHOOK_SECRET"], message: "is required when TELEGRAM_MODE=webhook" });
    }
  });

export type TelegramConfig = z.infer<typeof TelegramEnvSchema>;

export function parseTelegramConfig(env: Env = environment()): TelegramConfig {
  const r = TelegramEnvSchema.safeParse(env);
  if (r.success) return r.data;
  throw new ConfigError(issueLines(r.error));
}
