import { MetricsEnvSchema } from "@svc/metrics";
import { PROVIDER_SETTING_NAMES } from "@svc/persistence";
import { ApiEnvSchema } from "./api.js";
import { CliEnvSchema } from "./cli.js";
import { DiscordEnvSchema } from "./discord.js";
import { SlackEnvSchema } from "./slack.js";
import { TelegramEnvSchema } from "./telegram.js";
import { WhatsAppEnvSchema } from "./whatsapp.js";
import { WorkerEnvSchema } from "./worker.js";

/** The processes svc runs, as docs/configuration.md names them. */
export type ProcessName = "api" | "worker" | "cli" | "bot-telegram" | "bot-discord" | "bot-slack" | "bot-whatsapp";

/** The metrics listener of the worker and the bots (@svc/metrics reads them through environment()). */
const METRICS = Object.keys(MetricsEnvSchema.shape);

/** Every environment variable each process reads: its schema's keys, plus the providers' settings where it screens. */
export const SETTINGS_BY_PROCESS: Readonly<Record<ProcessName, readonly string[]>> = {
  api: [...Object.keys(ApiEnvSchema.shape), ...PROVIDER_SETTING_NAMES],
  worker: [...Object.keys(WorkerEnvSchema.shape), ...PROVIDER_SETTING_NAMES, ...METRICS],
  // `svc` on a local database reads the API's settings (same variables), and its own.
  cli: [...Object.keys(ApiEnvSchema.shape), ...PROVIDER_SETTING_NAMES, ...Object.keys(CliEnvSchema.shape)],
  "bot-telegram": [...Object.keys(TelegramEnvSchema.shape), ...METRICS],
  "bot-discord": [...Object.keys(DiscordEnvSchema.shape), ...METRICS],
  "bot-slack": [...Object.keys(SlackEnvSchema.shape), ...METRICS],
  "bot-whatsapp": [...Object.keys(WhatsAppEnvSchema.shape), ...METRICS],
};

/** Every variable any process reads. */
export const ALL_SETTINGS: readonly string[] = [...new Set(Object.values(SETTINGS_BY_PROCESS).flat())].sort();

/** Settings whose values are credentials: never logged (the logger redacts them by name). */
export const SECRET_SETTINGS: readonly string[] = [
  "DATABASE_URL", "SVC_BOOTSTRAP_KEY", "SVC_AUDIT_KEY", "SVC_AUDIT_PREVIOUS_KEYS", "SVC_API_KEY",
  "SVC_STRIPE_SECRET_KEY", "SVC_STRIPE_WEBHOOK_SECRET", "SVC_GITHUB_CLIENT_SECRET", "SVC_GOOGLE_CLIENT_SECRET", "SVC_SMTP_URL",
  "SVC_SAFE_BROWSING_KEY", "SVC_URLHAUS_KEY", "SVC_ABUSEIPDB_KEY", "SVC_CHAINABUSE_KEY", "SVC_EXPLORER_KEY", "SVC_IPQS_KEY",
  "TELEGRAM_BOT_TOKEN", "TELEGRAM_WEBHOOK_SECRET", "DISCORD_TOKEN",
  "SLACK_SIGNING_SECRET", "SLACK_CLIENT_SECRET", "SLACK_TOKEN_KEY",
  "WHATSAPP_ACCESS_TOKEN", "WHATSAPP_APP_SECRET", "WHATSAPP_VERIFY_TOKEN",
];
