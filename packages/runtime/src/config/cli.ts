import { z } from "zod";
import { environment, setVariables, type Env } from "./load.js";

/**
 * The settings only `svc` reads (on top of the API's, which it uses on a local database).
 * Terminal conventions (NO_COLOR, FORCE_COLOR, TERM) are read as the wider world defines them.
 */
export const CliEnvSchema = z.object({
  /** A server to talk to instead of the local database (as `--url`). */
  SVC_URL: z.string().optional(),
  /** The API key for SVC_URL (as `--key`). */
  SVC_API_KEY: z.string().optional(),
  /** Any value: an unexpected error prints its stack trace. */
  SVC_DEBUG: z.string().optional(),
  /** Any value: no colors (https://no-color.org). */
  NO_COLOR: z.string().optional(),
  /** Colors even when not on a terminal (unless "0" or "false"). */
  FORCE_COLOR: z.string().optional(),
  /** `dumb`: no colors. */
  TERM: z.string().optional(),
});

export type CliSettings = z.infer<typeof CliEnvSchema>;

/** The CLI's own settings; FORCE_COLOR keeps an empty value (set but empty still means "on"). */
export function cliSettings(env: Env = environment()): CliSettings {
  const parsed = CliEnvSchema.parse(setVariables(env));
  return env.FORCE_COLOR !== undefined ? { ...parsed, FORCE_COLOR: env.FORCE_COLOR } : parsed;
}
