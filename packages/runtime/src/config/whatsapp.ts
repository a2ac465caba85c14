import { z } from "zod";
import { ConfigError, environment, fields, issueLines, type Env } from "./load.js";

/**
 * Environment, parsed once at start-up. A bad value stops the process with a message naming
 * the variable, never a half-configured bot. The values come from the app's page on Meta for
 * Developers (docs/bots/whatsapp.md).
 */
export const WhatsAppEnvSchema = z.object({
  /** A system-user access token with whatsapp_business_messaging. */
  WHATSAPP_ACCESS_TOKEN: z.string().regex(/^[\w-]{20,1024}$/u, "must be the access token from the app's WhatsApp > API Setup page"),
  /** The app secret (App settings > Basic): signs every webhook delivery (X-Hub-Signature-256). */
  WHATSAPP_APP_SECRET: z.string().regex(/^[\w-]{16,256}$/u, "must be the app secret from App settings > Basic"),
  /** Any string you choose, entered again as the webhook's "Verify token" on Meta's page. */
  WHATSAPP_VERIFY_TOKEN: z.string().min(16, "must be at least 16 characters").max(256),
  /** The business phone number's id (not the number itself): replies are sent from it. */
  WHATSAPP_PHONE_NUMBER_ID: z.string().regex(/^\d{5,25}$/u, "must be the numeric phone number id shown on API Setup"),
  WHATSAPP_API_VERSION: z.string().regex(/^v\d{1,3}\.\d$/u, "must look like v23.0").default("v23.0"),
  /** The Graph API origin; only changed to point at a local fake. */
  WHATSAPP_GRAPH_URL: fields.httpUrl().default("https://graph.facebook.com"),
  WHATSAPP_WEBHOOK_PATH: z.string().regex(/^\/[\w/-]{0,200}$/u).default("/whatsapp/webhook"),
  /** Webhook bodies above this many bytes are refused (413) unread; Meta's are a few KiB. */
  WHATSAPP_MAX_BODY_BYTES: z.coerce.number().int().min(1024).max(10_000_000).default(262_144),
  /** PostgreSQL (server mode); without it the state lives in embedded PGlite under SVC_DATA_DIR/pgdata. */
  DATABASE_URL: fields.DATABASE_URL.optional(),
  /** Embedded PGlite's home (`pgdata` inside it); `memory://` keeps everything in memory (tests). */
  SVC_DATA_DIR: fields.SVC_DATA_DIR,
  /** Makes the first API key deterministic (shared with the API); its key is accepted by `!svc connect` as pro. */
  SVC_BOOTSTRAP_KEY: fields.SVC_BOOTSTRAP_KEY.optional(),
  /** Listen address, as the API's: all interfaces by default; `127.0.0.1` behind a local reverse proxy. */
  HOST: z.string().min(1).default("0.0.0.0"),
  /** 0 picks a free port (tests); the start-up line says which. */
  PORT: z.coerce.number().int().min(0).max(65_535).default(8082),
  LOG_LEVEL: fields.LOG_LEVEL,
});

export type WhatsAppConfig = z.infer<typeof WhatsAppEnvSchema>;

export function parseWhatsAppConfig(env: Env = environment()): WhatsAppConfig {
  const r = WhatsAppEnvSchema.safeParse(env);
  if (r.success) return r.data;
  throw new ConfigError(issueLines(r.error));
}

/** Where the webhook server listens (`serve()` options). */
export function listenAddress(config: Pick<WhatsAppConfig, "HOST" | "PORT">): { readonly hostname: string; readonly port: number } {
  return { hostname: config.HOST, port: config.PORT };
}
