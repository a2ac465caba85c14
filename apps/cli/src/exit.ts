/**
 * Exit codes, documented in docs/cli.md. When several apply, the most serious wins
 * (internal > unavailable > usage > fail-on).
 */
export const EXIT = {
  ok: 0,
  /** A verdict reached the `--fail-on` level. */
  failOn: 1,
  /** Bad arguments or bad input (unknown option, missing file, invalid entity). */
  usage: 2,
  /** The server could not be reached, or refused the key (401/403), or stayed rate-limited/unavailable. */
  unavailable: 3,
  /** A bug or an unexpected failure inside svc. */
  internal: 4,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

const RANK: Readonly<Record<number, number>> = { 0: 0, 1: 1, 2: 2, 3: 3, 4: 4 };

/** The more serious of two exit codes. */
export function worst(a: number, b: number): number {
  return (RANK[a] ?? 4) >= (RANK[b] ?? 4) ? a : b;
}

/** An error the user can act on: a message, what to do next, and the exit code it maps to. */
export class CliError extends Error {
  override readonly name = "CliError";
  constructor(message: string, readonly exitCode: number = EXIT.usage, readonly hint?: string) {
    super(message);
  }
}
