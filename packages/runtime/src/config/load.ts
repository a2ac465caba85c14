import { isIP } from "node:net";
import { z } from "zod";

/**
 * The one place any svc process reads its environment. Every setting goes through a zod schema
 * in this directory (one per process), and every variable is listed in docs/configuration.md;
 * a test scans the sources for other reads.
 */
export type Env = Readonly<Record<string, string | undefined>>;

/** The process environment, read here and nowhere else. */
export function environment(): Env {
  return process.env;
}

/** A configuration a process cannot start with: each problem names its variable. */
export class ConfigError extends Error {
  override readonly name = "ConfigError";
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super(`Invalid configuration:\n  ${problems.join("\n  ")}`);
    this.problems = problems;
  }

  /** One line for the terminal: no stack trace for a setting to fix. */
  oneLine(processName: string): string {
    return `${processName}: cannot start: ${this.problems.join("; ")} (see docs/configuration.md)`;
  }
}

/** The exit code of a process refused for its configuration (as a usage error). */
export const CONFIG_EXIT_CODE = 2;

/** `NAME: message` for each issue (`config: message` for a whole-object one). */
export function issueLines(error: z.ZodError, separator = ": "): string[] {
  return error.issues.map((i) => `${i.path.join(".") || "config"}${separator}${i.message}`);
}

/** Unset and empty variables are the same (an empty `FOO=` in a .env file means "not set"). */
export function setVariables(env: Env): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== ""));
}

/**
 * A process's configuration, or exit: one line on stderr and exit code 2. Used by every
 * process's entry point so a bad setting looks the same everywhere.
 */
export function configOrExit<C>(processName: string, load: (env: Env) => C, env: Env = environment()): C {
  try {
    return load(env);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    process.stderr.write(`${e.oneLine(processName)}\n`);
    process.exit(CONFIG_EXIT_CODE);
  }
}

// Fields every process shares (the same name means the same thing everywhere).
export const fields = {
  DATABASE_URL: z.string().regex(/^postgres(?:ql)?:\/\//u, "must be a postgres:// URL"),
  SVC_DATA_DIR: z.string().min(1).default("./.svc"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  SVC_BOOTSTRAP_KEY: z.string().min(32, "must be at least 32 characters"),
  port: (fallback: number) => z.coerce.number().int().min(1).max(65_535).default(fallback),
  /** An http(s) URL; a wrong scheme is said as such, not as "Invalid URL". */
  httpUrl: () => z.url({ protocol: /^https?$/u, error: "must be an http:// or https:// URL" }),
  httpsUrl: () => z.url({ protocol: /^https$/u, error: "must be an https:// URL" }),
  /** Comma-separated addresses or CIDR ranges, checked here so a typo stops the process as any bad setting does. */
  SVC_WEBHOOK_ALLOWED_CIDRS: z.string().default("").superRefine((value, ctx) => {
    for (const item of value.split(",").map((c) => c.trim()).filter((c) => c.length > 0)) {
      if (!isAddressOrRange(item)) ctx.addIssue({ code: "custom", message: `"${item}" is not an IP address or CIDR range (e.g. 10.0.0.0/8, 127.0.0.1)` });
    }
  }),
};

function isAddressOrRange(item: string): boolean {
  const [address = "", bits, rest] = item.split("/");
  const kind = isIP(address);
  if (kind === 0 || rest !== undefined) return false;
  return bits === undefined || (/^\d{1,3}$/u.test(bits) && Number(bits) <= (kind === 4 ? 32 : 128));
}
