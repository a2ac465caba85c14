import { readFileSync } from "node:fs";
import { parseFeedsSetting, providerSettingsFromEnv, type FeedDefinition, type ProviderSettings } from "@svc/persistence";

/** The worker's settings, from the environment; a bad value stops the process naming the variable. */
export interface WorkerConfig {
  /** PostgreSQL (server mode). The embedded default runs its worker inside the API process instead. */
  readonly DATABASE_URL: string;
  readonly SVC_WEBHOOK_ALLOWED_CIDRS: string;
  readonly LOG_LEVEL: string;
  /** Check batches in flight. */
  readonly SVC_WORKER_CONCURRENCY: number;
  /** Checks per batch (one transaction each). */
  readonly SVC_WORKER_BATCH_SIZE: number;
  /** The job lease: a killed worker's job runs again this long after it was taken. */
  readonly SVC_JOB_LEASE_SECONDS: number;
  /** How often expired leases are looked for. */
  readonly SVC_JOB_MAINTENANCE_SECONDS: number;
  /** SIGTERM: how long in-flight work may take to finish. */
  readonly SVC_WORKER_SHUTDOWN_SECONDS: number;
  /** Webhook deliveries in flight. */
  readonly SVC_WEBHOOK_CONCURRENCY: number;
  /** Testing knob for crash tests: pause between taking jobs and screening them. 0 in production. */
  readonly SVC_WORKER_PAUSE_MS: number;
  /** The key audit records are sealed with; the API's SVC_AUDIT_KEY (every replica and worker shares it). */
  readonly SVC_AUDIT_KEY: string;
  /** Earlier audit keys (comma-separated in the environment), as for the API. */
  readonly SVC_AUDIT_PREVIOUS_KEYS: readonly string[];
  /** Live feeds (docs/feeds.md), as for the API: a JSON array or the path of a JSON file. */
  readonly SVC_FEEDS: readonly FeedDefinition[];
  /** Sync the feeds this often; 0 (the default) never. */
  readonly SVC_FEED_SYNC_MINUTES: number;
  /** How long a check waits for each outside source, as for the API. */
  readonly SVC_SOURCE_TIMEOUT_MS: number;
  /** Outside reputation providers (docs/providers.md), as for the API: asynchronous checks consult the same ones. */
  readonly providers: ProviderSettings;
}

export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

const LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

export function loadWorkerConfig(env: Record<string, string | undefined> = process.env): WorkerConfig {
  const problems: string[] = [];
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === "") return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) problems.push(`  ${name}: must be an integer from ${min} to ${max}`);
    return n;
  };
  const url = env.DATABASE_URL ?? "";
  if (!/^postgres(?:ql)?:\/\//.test(url)) {
    problems.push("  DATABASE_URL: must be a postgres:// URL (the embedded default runs its worker inside `npm start`)");
  }
  const auditKey = env.SVC_AUDIT_KEY ?? "";
  if (auditKey.length < 32) problems.push("  SVC_AUDIT_KEY: required, at least 32 characters: the same key as the API's (audit records are sealed with it)");
  const previousAuditKeys = (env.SVC_AUDIT_PREVIOUS_KEYS ?? "").split(",").map((k) => k.trim()).filter((k) => k.length > 0);
  if (previousAuditKeys.some((k) => k.length < 32)) problems.push("  SVC_AUDIT_PREVIOUS_KEYS: every key must be at least 32 characters");
  let feeds: FeedDefinition[] = [];
  try {
    feeds = parseFeedsSetting(env.SVC_FEEDS, (path) => readFileSync(path, "utf8"));
  } catch (e) {
    problems.push(`  SVC_FEEDS: ${(e as Error).message}`);
  }
  const sourceTimeoutMs = int("SVC_SOURCE_TIMEOUT_MS", 2_000, 50, 30_000);
  const providers = providerSettingsFromEnv(env, { rdapBootstrapPath: env.SVC_RDAP_BOOTSTRAP, attemptTimeoutMs: sourceTimeoutMs });
  problems.push(...providers.problems);
  const level = env.LOG_LEVEL || "info";
  if (!LEVELS.includes(level)) problems.push(`  LOG_LEVEL: must be one of ${LEVELS.join(", ")}`);
  const config: WorkerConfig = {
    DATABASE_URL: url,
    SVC_WEBHOOK_ALLOWED_CIDRS: env.SVC_WEBHOOK_ALLOWED_CIDRS ?? "",
    LOG_LEVEL: level,
    SVC_WORKER_CONCURRENCY: int("SVC_WORKER_CONCURRENCY", 2, 1, 64),
    SVC_WORKER_BATCH_SIZE: int("SVC_WORKER_BATCH_SIZE", 50, 1, 1000),
    SVC_JOB_LEASE_SECONDS: int("SVC_JOB_LEASE_SECONDS", 30, 1, 3600),
    SVC_JOB_MAINTENANCE_SECONDS: int("SVC_JOB_MAINTENANCE_SECONDS", 5, 1, 600),
    SVC_WORKER_SHUTDOWN_SECONDS: int("SVC_WORKER_SHUTDOWN_SECONDS", 30, 1, 600),
    SVC_WEBHOOK_CONCURRENCY: int("SVC_WEBHOOK_CONCURRENCY", 256, 1, 10_000),
    SVC_WORKER_PAUSE_MS: int("SVC_WORKER_PAUSE_MS", 0, 0, 600_000),
    SVC_AUDIT_KEY: auditKey,
    SVC_AUDIT_PREVIOUS_KEYS: previousAuditKeys,
    SVC_FEEDS: feeds,
    SVC_FEED_SYNC_MINUTES: int("SVC_FEED_SYNC_MINUTES", 0, 0, 10_080),
    SVC_SOURCE_TIMEOUT_MS: sourceTimeoutMs,
    providers: providers.settings,
  };
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n${problems.join("\n")}`);
  return config;
}
