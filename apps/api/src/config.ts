import { readFileSync } from "node:fs";
import { parseFeedsSetting, PROVIDER_KEYS, PROVIDER_NAMES, type ProviderName, type ProviderSettings } from "@svc/persistence";
import { z } from "zod";
import { DEFAULT_PLANS, PlansSchema } from "./plans.js";

/** Every setting comes from the environment, parsed once at start-up; a bad value stops the process naming the variable. */
const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default("0.0.0.0"),
  SVC_DATA_DIR: z.string().min(1).default("./.svc"),
  DATABASE_URL: z.string().regex(/^postgres(?:ql)?:\/\//, "must be a postgres:// URL").optional(),
  SVC_BOOTSTRAP_KEY: z.string().min(32, "must be at least 32 characters").optional(),
  SVC_WEBHOOK_ALLOWED_CIDRS: z.string().default(""),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
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
  // Outside reputation providers (docs/providers.md): none unless listed, comma-separated.
  SVC_PROVIDERS: z.string().default("")
    .transform((v) => [...new Set(v.split(",").map((p) => p.trim().toLowerCase()).filter((p) => p.length > 0))])
    .refine((ps) => ps.every((p) => (PROVIDER_NAMES as readonly string[]).includes(p)), `lists an unknown provider (known: ${PROVIDER_NAMES.join(", ")})`)
    .transform((ps) => ps as ProviderName[]),
  SVC_RDAP_URL: z.url({ protocol: /^https?$/ }).optional(),
  SVC_RDAP_BOOTSTRAP: z.string().optional(),
  SVC_DNS_SERVERS: z.string().default("").transform((v) => v.split(",").map((s) => s.trim()).filter((s) => s.length > 0)),
  SVC_SAFE_BROWSING_KEY: z.string().optional(),
  SVC_SAFE_BROWSING_URL: z.url({ protocol: /^https?$/ }).optional(),
  SVC_URLHAUS_KEY: z.string().optional(),
  SVC_URLHAUS_URL: z.url({ protocol: /^https?$/ }).optional(),
  SVC_ABUSEIPDB_KEY: z.string().optional(),
  SVC_ABUSEIPDB_URL: z.url({ protocol: /^https?$/ }).optional(),
  // How long a check waits for each outside source (intel store, reports, graph, providers).
  SVC_SOURCE_TIMEOUT_MS: z.coerce.number().int().min(50).max(30_000).default(2_000),
}).superRefine((c, ctx) => {
  const env: Record<string, string> = { safeBrowsingKey: "SVC_SAFE_BROWSING_KEY", urlhausKey: "SVC_URLHAUS_KEY", abuseIpdbKey: "SVC_ABUSEIPDB_KEY" };
  for (const p of c.SVC_PROVIDERS) {
    const needs = PROVIDER_KEYS[p];
    if (needs === null) continue;
    const name = env[needs] as keyof typeof c;
    if (!c[name]) ctx.addIssue({ code: "custom", path: [name], message: `required when SVC_PROVIDERS lists ${p}` });
  }
  if (c.DATABASE_URL && !c.SVC_AUDIT_KEY) {
    ctx.addIssue({ code: "custom", path: ["SVC_AUDIT_KEY"], message: "required with DATABASE_URL: every API replica and worker must seal audit records with the same key (at least 32 characters, e.g. `openssl rand -hex 32`)" });
  }
});

export type Config = z.infer<typeof EnvSchema>;

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const r = EnvSchema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== "")));
  if (!r.success) {
    const lines = r.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  return r.data;
}

/** The providers' part of the configuration. */
export function providerSettings(c: Config): ProviderSettings {
  return {
    enabled: c.SVC_PROVIDERS,
    rdapUrl: c.SVC_RDAP_URL,
    rdapBootstrapPath: c.SVC_RDAP_BOOTSTRAP ?? (c.SVC_DATA_DIR === "memory://" ? undefined : `${c.SVC_DATA_DIR}/rdap-dns.json`),
    dnsServers: c.SVC_DNS_SERVERS,
    safeBrowsingKey: c.SVC_SAFE_BROWSING_KEY,
    safeBrowsingUrl: c.SVC_SAFE_BROWSING_URL,
    urlhausKey: c.SVC_URLHAUS_KEY,
    urlhausUrl: c.SVC_URLHAUS_URL,
    abuseIpdbKey: c.SVC_ABUSEIPDB_KEY,
    abuseIpdbUrl: c.SVC_ABUSEIPDB_URL,
    resilience: { attemptTimeoutMs: c.SVC_SOURCE_TIMEOUT_MS },
  };
}

export class ConfigError extends Error {
  override readonly name = "ConfigError";
}
