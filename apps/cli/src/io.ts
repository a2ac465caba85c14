import { styleText } from "node:util";
import { cliSettings, environment } from "@svc/runtime/cli-settings";

/** The process streams and environment, passed in so commands never reach for globals. */
export interface Io {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  readonly stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
}

export function processIo(): Io {
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: environment(), cwd: process.cwd() };
}

type Format = Parameters<typeof styleText>[0];
export type Paint = (format: Format, text: string) => string;

/**
 * Colors only for a terminal: never when the stream is not a TTY, when NO_COLOR is set (any
 * value, https://no-color.org) or TERM=dumb; FORCE_COLOR (not "0") turns them on regardless.
 * The decision is ours alone: styleText is called with validateStream off, because its own
 * check (the stream's color depth) answers "no colors" whenever CI is set, even on a terminal.
 */
export function colorEnabled(stream: { isTTY?: boolean }, env: Io["env"]): boolean {
  const s = cliSettings(env);
  if (s.FORCE_COLOR !== undefined && s.FORCE_COLOR !== "0" && s.FORCE_COLOR !== "false") return true;
  if (s.NO_COLOR !== undefined) return false;
  if (s.TERM === "dumb") return false;
  return stream.isTTY === true;
}

export function painter(enabled: boolean): Paint {
  return enabled ? (format, text) => styleText(format, text, { validateStream: false }) : (_format, text) => text;
}

// eslint-disable-next-line no-control-regex -- stripping ANSI escapes is the point
const ANSI_RE = /\u001b\[[0-9;]*m/g;

/** Width of a string on a terminal: ANSI escapes take none, East Asian wide characters two. */
export function displayWidth(text: string): number {
  let w = 0;
  for (const ch of text.replace(ANSI_RE, "")) {
    const cp = ch.codePointAt(0) ?? 0;
    if (cp === 0x200b || cp === 0x200c || cp === 0x200d || (cp >= 0x300 && cp <= 0x36f)) continue;
    w += (cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0xa4cf) || (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff60) || (cp >= 0xffe0 && cp <= 0xffe6) || (cp >= 0x1f300 && cp <= 0x1faff) || (cp >= 0x20000 && cp <= 0x3fffd) ? 2 : 1;
  }
  return w;
}

export function padEnd(text: string, width: number): string {
  return text + " ".repeat(Math.max(0, width - displayWidth(text)));
}

export function padStart(text: string, width: number): string {
  return " ".repeat(Math.max(0, width - displayWidth(text))) + text;
}

/** Writes and waits for the stream to accept more (backpressure), so big outputs use constant memory. */
export function write(stream: NodeJS.WritableStream, text: string): Promise<void> | void {
  if (stream.write(text)) return;
  return new Promise((resolve) => stream.once("drain", () => resolve()));
}

/** Input echoed in messages: control and bidi characters made visible, long values cut. */
export function showInput(value: string, max = 80): string {
  // eslint-disable-next-line no-control-regex -- making control characters visible is the point
  const safe = value.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, (c) => `\\u${(c.codePointAt(0) ?? 0).toString(16).padStart(4, "0")}`);
  return `"${safe.length > max ? `${safe.slice(0, max - 1)}…` : safe}"`;
}
