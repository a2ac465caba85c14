import { readFileSync } from "node:fs";
import { parseFeedsSetting, providerSettingsFromEnv, type ProviderSettings } from "@svc/persistence";
import { z } from "zod";
import { ConfigError, environment, fields, issueLines, setVariables, type Env } from "./load.js";
import { DEFAULT_PLANS, PlansSchema } from "./plans.js";

/**
 * The API's settings (also `svc` on a local database, and the embedded worker inside the API):
 * parsed once at start-up; a bad value stops the process naming the variable.
 */
export const ApiEnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default("0.0.0.0"),
  SVC_DATA_DIR: fields.SVC_DATA_DIR,
  /** Embedded mode: writes are refused (507 storage.full) while the data directory's disk has less free (MB; 0: never). */
  SVC_DATA_DIR_MIN_FREE_MB: z.coerce.number().int().min(0).max(1_000_000).default(64),
  DATABASE_URL: fields.DATABASE_URL.optional(),
  SVC_BOOTSTRAP_KEY: fields.SVC_BOOTSTRAP_KEY.optional(),
  SVC_WEBHOOK_ALLOWED_CIDRS: fields.SVC_WEBHOOK_ALLOWED_CIDRS,
  LOG_LEVEL: fields.LOG_LEVEL,
  SVC_BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).max(10_000_000).default(256 * 1024),
  /** Plans as JSON, over the defaults (plans.ts); after parsing, the whole catalogue. */
  SVC_PLANS: PlansSchema.default(DEFAULT_PLANS),
  // The key that seals audit records (HMAC-SHA-256); the database never holds it. Embedded: a key
  // file beside the database is made on first start. Server mode: required (replicas share it).
  SVC_AUDIT_KEY: z.string().min(32, "must be at least 32 characters").optional(),
  // Earlier audit keys, comma-separated, kept after a rotation so records they sealed still verify.
  SVC_AUDIT_PREVIOUS_KEYS: z.string().default("")
    .transform((v) => v.split(",").map((k) => k.trim()).filter((k) => k.length > 0))
    .refine((keys) => keys.every((k) => k.length >= 32), "every key must be at least 32 characters"),
  // Billing (Stripe): off unless the secret key is set; then the webhook secret and both prices are required.
  SVC_STRIPE_SECRET_KEY: z.string().regex(/^(sk|rk)_(test|live)_\w+$/, "must be a Stripe secret or restricted key (sk_… / rk_…)").optional(),
  SVC_STRIPE_WEBHOOK_SECRET: z.string().regex(/^whsec_\w+$/, "must be a webhook signing secret (whsec_…)").optional(),
  SVC_STRIPE_PRICE_STARTER: z.string().regex(/^price_\w+$/, "must be a Stripe price id (price_…)").optional(),
  SVC_STRIPE_PRICE_PRO: z.string().regex(/^price_\w+$/, "must be a Stripe price id (price_…)").optional(),
  /** Where the Stripe API is (tests: a local fake); default https://api.stripe.com. */
  SVC_STRIPE_API_URL: fields.httpUrl().optional(),
  /** Seconds a webhook's signature timestamp may be away from now (Stripe's default: 300). */
  SVC_STRIPE_WEBHOOK_TOLERANCE_SECONDS: z.coerce.number().int().min(1).max(3600).default(300),
  /** Where Checkout and the Billing Portal send the customer back; default the request's origin. */
  SVC_BILLING_RETURN_URL: fields.httpUrl().optional(),
  /** Days between an account deletion request and the purge (0: at once; at most 30, the promise). */
  SVC_DELETION_DELAY_DAYS: z.coerce.number().int().min(0).max(30).default(0),
  // Live feeds (docs/feeds.md): a JSON array of feed definitions, or the path of a JSON file with one.
  SVC_FEEDS: z.string().default("").transform((v, ctx) => {
    try {
      return parseFeedsSetting(v, (path) => readFileSync(path, "utf8"));
    } catch (e) {
      ctx.addIssue({ code: "custom", message: (e as Error).message });
      return z.NEVER;
    }
  }),
  // How often the feeds are synced by the worker (the embedded default: by this process); 0 = never (sync by hand: `svc intel sync`).
  SVC_FEED_SYNC_MINUTES: z.coerce.number().int().min(0).max(10_080).default(0),
  // Web dashboard (docs/web.md). The public origin the browser uses (CSRF checks, links in
  // e-mails); without it, the request's own origin.
  SVC_PUBLIC_URL: fields.httpUrl().transform((u) => new URL(u).origin).optional(),
  /** SMTP for verification and reset e-mails (smtp:// or smtps://); without it they are only logged as not sent. */
  SVC_SMTP_URL: z.string().regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL").optional(),
  SVC_MAIL_FROM: z.string().default("svc <no-reply@localhost>"),
  SVC_GITHUB_CLIENT_ID: z.string().optional(),
  SVC_GITHUB_CLIENT_SECRET: z.string().optional(),
  SVC_GOOGLE_CLIENT_ID: z.string().optional(),
  SVC_GOOGLE_CLIENT_SECRET: z.string().optional(),
  // The providers' endpoints, configurable for a test double or an enterprise server.
  SVC_GITHUB_AUTHORIZE_URL: z.url().default("https://github.com/login/oauth/authorize"),
  SVC_GITHUB_TOKEN_URL: z.url().default("https://github.com/login/oauth/access_token"),
  SVC_GITHUB_API_URL: z.url().default("https://api.github.com"),
  SVC_GOOGLE_AUTHORIZE_URL: z.url().default("https://accounts.google.com/o/oauth2/v2/auth"),
  SVC_GOOGLE_TOKEN_URL: z.url().default("https://oauth2.googleapis.com/token"),
  SVC_GOOGLE_USERINFO_URL: z.url().default("https://openidconnect.googleapis.com/v1/userinfo"),
  /** Failed-or-not sign-in attempts allowed per e-mail address per minute (and five times that per client address). */
  SVC_LOGIN_ATTEMPTS_PER_MINUTE: z.coerce.number().int().min(1).max(1000).default(5),
  // How long a check waits for each outside source (intel store, reports, graph, providers).
  SVC_SOURCE_TIMEOUT_MS: z.coerce.number().int().min(50).max(30_000).default(2_000),
  // Crash tests only: the embedded worker pauses this long between taking jobs and screening them. 0 in production.
  SVC_WORKER_PAUSE_MS: z.coerce.number().int().min(0).max(600_000).default(0),
});

const EnvSchema = ApiEnvSchema.superRefine((c, ctx) => {
  if (c.SVC_STRIPE_SECRET_KEY) {
    for (const name of ["SVC_STRIPE_WEBHOOK_SECRET", "SVC_STRIPE_PRICE_STARTER", "SVC_STRIPE_PRICE_PRO"] as const) {
      if (!c[name]) ctx.addIssue({ code: "custom", path: [name], message: "required with SVC_STRIPE_SECRET_KEY" });
    }
  }
  if (c.DATABASE_URL && !c.SVC_AUDIT_KEY) {
    ctx.addIssue({ code: "custom", path: ["SVC_AUDIT_KEY"], message: "required with DATABASE_URL: every API replica and worker must seal audit records with the same key (at least 32 characters, e.g. `openssl rand -hex 32`)" });
  }
});

/** The names of the environment variables read here (the docs list each). */
export const SETTING_NAMES: readonly string[] = Object.keys(ApiEnvSchema.shape);

/**
 * The settings; `providers` (SVC_PROVIDERS, their keys and URLs: docs/providers.md) is parsed by
 * the providers' own reader, which the worker shares.
 */
export type Config = z.infer<typeof EnvSchema> & { readonly providers: ProviderSettings };

export function loadConfig(env: Env = environment()): Config {
  const r = EnvSchema.safeParse(setVariables(env));
  const dataDir = env.SVC_DATA_DIR || "./.svc";
  const providers = providerSettingsFromEnv(env, {
    rdapBootstrapPath: dataDir === "memory://" ? undefined : `${dataDir}/rdap-dns.json`,
    ...(r.success ? { attemptTimeoutMs: r.data.SVC_SOURCE_TIMEOUT_MS } : {}),
  });
  if (!r.success || providers.problems.length > 0) {
    throw new ConfigError([...(r.success ? [] : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`)), ...providers.problems.map((p) => p.trim())]);
  }
  return { ...r.data, providers: providers.settings };
}

/**
 * Only where the data is (DATABASE_URL, SVC_DATA_DIR), read as `loadConfig` reads them: for what
 * works on the database itself and nothing else (`svc migrate`), so that it asks for nothing more.
 */
export function loadStorageSettings(env: Env = environment()): Pick<Config, "DATABASE_URL" | "SVC_DATA_DIR"> {
  const r = ApiEnvSchema.pick({ DATABASE_URL: true, SVC_DATA_DIR: true }).safeParse(setVariables(env));
  if (!r.success) throw new ConfigError(issueLines(r.error));
  return r.data;
}

/** The providers' part of the configuration. */
export function providerSettings(c: Config): ProviderSettings {
  return c.providers;
}
