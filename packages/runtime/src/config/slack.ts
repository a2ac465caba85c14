import { z } from "zod";
import { ConfigError, environment, fields, issueLines, type Env } from "./load.js";

/**
 * Environment, parsed once at start-up. A bad value stops the process with a message naming
 * the variable, never a half-configured bot.
 */
export const SlackEnvSchema = z.object({
  /** Basic Information → App Credentials → Signing Secret (32 hex digits). */
  SLACK_SIGNING_SECRET: z.string().regex(/^[0-9a-f]{32,64}$/iu, "must be the app's signing secret (hex, from Basic Information)"),
  SLACK_CLIENT_ID: z.string().regex(/^\d+\.\d+$/u, "must look like 1234567890.1234567890 (Basic Information → Client ID)"),
  SLACK_CLIENT_SECRET: z.string().regex(/^[0-9a-f]{32,64}$/iu, "must be the app's client secret (hex, from Basic Information)"),
  /** Seals bot tokens in the database (AES-256-GCM under a key derived from it). Keep it out of the database's backups. */
  SLACK_TOKEN_KEY: z.string().min(32, "must be at least 32 characters (e.g. openssl rand -hex 32)"),
  /** Public HTTPS address Slack sends users back to after the install (OAuth & Permissions → Redirect URLs). */
  SLACK_REDIRECT_URL: fields.httpUrl().optional(),
  /** Web API root: the real one, or a fake on 127.0.0.1 for tests. */
  SLACK_API_URL: fields.httpUrl().default("https://slack.com/api/"),
  /** Where the install button sends users (Slack's authorize page). */
  SLACK_AUTHORIZE_URL: fields.httpUrl().default("https://slack.com/oauth/v2/authorize"),
  DATABASE_URL: fields.DATABASE_URL.optional(),
  SVC_DATA_DIR: fields.SVC_DATA_DIR,
  SVC_BOOTSTRAP_KEY: fields.SVC_BOOTSTRAP_KEY.optional(),
  /** 0 picks a free port (tests); the start-up line says which. */
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  LOG_LEVEL: fields.LOG_LEVEL,
});

export type SlackConfig = z.infer<typeof SlackEnvSchema>;

export function parseSlackConfig(env: Env = environment()): SlackConfig {
  const r = SlackEnvSchema.safeParse(env);
  if (r.success) return { ...r.data, SLACK_API_URL: r.data.SLACK_API_URL.endsWith("/") ? r.data.SLACK_API_URL : `${r.data.SLACK_API_URL}/` };
  throw new ConfigError(issueLines(r.error));
}
