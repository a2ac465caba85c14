import { InvalidArgumentError, Option, type Command } from "commander";
import type { RiskLevel } from "@svc/core";
import { colorEnabled, painter, type Io, type Paint } from "../io.js";
import { isRiskLevel } from "../render/verdict.js";

/** What every command gets: the streams, and a way to report its exit code. */
export interface Context {
  readonly io: Io;
  /** Raises the process exit code (the most serious one wins). */
  exit(code: number): void;
}

export const ENTITY_TYPES = ["domain", "url", "wallet", "email", "ip_address", "phone", "social_account"] as const;

export function addRemoteOptions(cmd: Command): Command {
  return cmd
    .addOption(new Option("--url <url>", "screen on this server instead of in-process (default: $SVC_URL)"))
    .addOption(new Option("--key <key>", "API key for --url (default: $SVC_API_KEY)"));
}

/** In-process on the local database instead of the bundled data alone. */
export function addDbOptions(cmd: Command): Command {
  return cmd
    .option("--db", "use this machine's database: imported intel, reports and graph; record checks in history (slower start)")
    .addOption(new Option("--data-dir <dir>", "database directory for --db (default: $SVC_DATA_DIR or ./.svc)"));
}

export function failOnOption(): Option {
  return new Option("--fail-on <level>", "exit with code 1 when any verdict reaches this risk level").choices(["low", "medium", "high", "critical"]);
}

export function typeOption(): Option {
  return new Option("--type <type>", "entity type, when the input is ambiguous (it must match the value)").choices([...ENTITY_TYPES]);
}

export function parsePositiveInt(name: string, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1 || n > max) throw new InvalidArgumentError(`${name} must be a whole number from 1 to ${max}.`);
    return n;
  };
}

export function asRiskLevel(x: string | undefined): RiskLevel | undefined {
  return x !== undefined && isRiskLevel(x) ? x : undefined;
}

export function stderrPaint(io: Io): Paint {
  return painter(colorEnabled(io.stderr, io.env));
}

export function stdoutPaint(io: Io): Paint {
  return painter(colorEnabled(io.stdout, io.env));
}

/** Help text with examples, appended after the options. */
export function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((l) => (l.startsWith("#") ? `  ${l}` : `  $ ${l}`)).join("\n")}\n`;
}
