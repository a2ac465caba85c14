import { readFileSync } from "node:fs";
import { parseFeedsSetting, providerSettingsFromEnv, type FeedDefinition, type ProviderSettings } from "@svc/persistence";
import { z } from "zod";
import { ConfigError, environment, fields, setVariables, type Env } from "./load.js";

const int = (fallback: number, min: number, max: number) =>
  z.coerce.number({ error: `must be an integer from ${min} to ${max}` }).int(`must be an integer from ${min} to ${max}`).min(min, `must be an integer from ${min} to ${max}`).max(max, `must be an integer from ${min} to ${max}`).default(fallback);

/** The worker's settings (server mode): a bad value stops the process naming the variable. */
export const WorkerEnvSchema = z.object({
  /** PostgreSQL (server mode). The embedded default runs its worker inside the API process instead. */
  DATABASE_URL: z.string({ error: "must be a postgres:// URL (the embedded default runs its worker inside `npm start`)" })
    .regex(/^postgres(?:ql)?:\/\//u, "must be a postgres:// URL (the embedded default runs its worker inside `npm start`)"),
  SVC_WEBHOOK_ALLOWED_CIDRS: fields.SVC_WEBHOOK_ALLOWED_CIDRS,
  LOG_LEVEL: fields.LOG_LEVEL,
  /** Check batches in flight. */
  SVC_WORKER_CONCURRENCY: int(2, 1, 64),
  /** Checks per batch (one transaction each). */
  SVC_WORKER_BATCH_SIZE: int(50, 1, 1000),
  /** The job lease: a killed worker's job runs again this long after it was taken. */
  SVC_JOB_LEASE_SECONDS: int(30, 1, 3600),
  /** How often expired leases are looked for. */
  SVC_JOB_MAINTENANCE_SECONDS: int(5, 1, 600),
  /** SIGTERM: how long in-flight work may take to finish. */
  SVC_WORKER_SHUTDOWN_SECONDS: int(30, 1, 600),
  /** Webhook deliveries in flight. */
  SVC_WEBHOOK_CONCURRENCY: int(256, 1, 10_000),
  /** Testing knob for crash tests: pause between taking jobs and screening them. 0 in production. */
  SVC_WORKER_PAUSE_MS: int(0, 0, 600_000),
  /** The key audit records are sealed with; the API's SVC_AUDIT_KEY (every replica and worker shares it). */
  SVC_AUDIT_KEY: z.string({ error: "required, at least 32 characters: the same key as the API's (audit records are sealed with it)" })
    .min(32, "required, at least 32 characters: the same key as the API's (audit records are sealed with it)"),
  /** Earlier audit keys (comma-separated), as for the API. */
  SVC_AUDIT_PREVIOUS_KEYS: z.string().default("")
    .transform((v) => v.split(",").map((k) => k.trim()).filter((k) => k.length > 0))
    .refine((keys) => keys.every((k) => k.length >= 32), "every key must be at least 32 characters"),
  /** Live feeds (docs/feeds.md), as for the API: a JSON array or the path of a JSON file. */
  SVC_FEEDS: z.string().default("").transform((v, ctx): FeedDefinition[] => {
    try {
      return parseFeedsSetting(v, (path) => readFileSync(path, "utf8"));
    } catch (e) {
      ctx.addIssue({ code: "custom", message: (e as Error).message });
      return z.NEVER;
    }
  }),
  /** Sync the feeds this often; 0 (the default) never. */
  SVC_FEED_SYNC_MINUTES: int(0, 0, 10_080),
  /** How long a check waits for each outside source, as for the API. */
  SVC_SOURCE_TIMEOUT_MS: int(2_000, 50, 30_000),
});

export type WorkerConfig = z.infer<typeof WorkerEnvSchema> & {
  /** Outside reputation providers (docs/providers.md), as for the API: asynchronous checks consult the same ones. */
  readonly providers: ProviderSettings;
};

export function loadWorkerConfig(env: Env = environment()): WorkerConfig {
  const r = WorkerEnvSchema.safeParse(setVariables(env));
  const providers = providerSettingsFromEnv(env, {
    rdapBootstrapPath: env.SVC_RDAP_BOOTSTRAP,
    ...(r.success ? { attemptTimeoutMs: r.data.SVC_SOURCE_TIMEOUT_MS } : {}),
  });
  if (!r.success || providers.problems.length > 0) {
    throw new ConfigError([...(r.success ? [] : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`)), ...providers.problems.map((p) => p.trim())]);
  }
  return { ...r.data, providers: providers.settings };
}
