import { z } from "zod";
import { ConfigError, environment, fields, issueLines, type Env } from "./load.js";

/**
 * Environment, parsed once at start-up. A bad value stops the process with one line per
 * variable (DESIGN §4), never a half-configured bot.
 */
const snowflake = z.string().regex(/^\d{17,20}$/u, "must be a Discord id (17–20 digits, from the Developer Portal)");

export const DiscordEnvSchema = z.object({
  DISCORD_TOKEN: z
    .string({ error: "is missing: create a bot in the Discord Developer Portal (Bot → Reset Token) and set DISCORD_TOKEN" })
    .regex(/^[\w-]{20,100}\.[\w-]{4,10}\.[\w-]{20,100}$/u, "does not look like a Discord bot token (three dot-separated parts)"),
  /** Defaults to the id inside the token (the bot user's id, which is the application's id). */
  DISCORD_APPLICATION_ID: snowflake.optional(),
  /** Registers the slash commands in this one server only (updates show at once; global ones can take a while). */
  DISCORD_GUILD_ID: snowflake.optional(),
  /** The application's public key (hex): enables the HTTP interactions endpoint, verified with Ed25519. */
  DISCORD_PUBLIC_KEY: z.string().regex(/^[0-9a-f]{64}$/iu, "must be the 64 hex characters of the application's public key").optional(),
  DISCORD_INTERACTIONS_PATH: z.string().regex(/^\/[\w/-]{0,200}$/u).default("/discord/interactions"),
  /** REST root (a proxy, or a test server); the gateway address is read from GET /gateway/bot under it. */
  DISCORD_API_ROOT: fields.httpUrl().optional(),
  DATABASE_URL: fields.DATABASE_URL.optional(),
  SVC_DATA_DIR: fields.SVC_DATA_DIR,
  SVC_BOOTSTRAP_KEY: fields.SVC_BOOTSTRAP_KEY.optional(),
  PORT: fields.port(8080),
  LOG_LEVEL: fields.LOG_LEVEL,
});

export type DiscordConfig = z.infer<typeof DiscordEnvSchema> & { readonly DISCORD_APPLICATION_ID: string };

/** A bot token starts with the bot's user id in base64. */
export function applicationIdFromToken(token: string): string | null {
  const id = Buffer.from(token.split(".")[0] ?? "", "base64").toString("utf8");
  return /^\d{17,20}$/u.test(id) ? id : null;
}

export function parseDiscordConfig(env: Env = environment()): DiscordConfig {
  const r = DiscordEnvSchema.safeParse(env);
  if (r.success) {
    const appId = r.data.DISCORD_APPLICATION_ID ?? applicationIdFromToken(r.data.DISCORD_TOKEN);
    if (appId) return { ...r.data, DISCORD_APPLICATION_ID: appId };
    throw new ConfigError(["DISCORD_APPLICATION_ID is missing and the token does not carry it: copy the Application ID from the Developer Portal"]);
  }
  throw new ConfigError(issueLines(r.error, " "));
}
