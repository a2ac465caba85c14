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

export class ConfigError extends Error {
  override readonly name = "ConfigError";
}
