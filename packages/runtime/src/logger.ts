import { AsyncLocalStorage } from "node:async_hooks";
import { hostname } from "node:os";
import { errorForLog } from "@svc/persistence";
import { pino, type DestinationStream, type Logger } from "pino";
import { SECRET_SETTINGS } from "./config/registry.js";

export type { Logger } from "pino";

/** Header names whose values are credentials (lower case, as Node gives them). */
const SECRET_HEADERS = [
  "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key",
  "stripe-signature", "x-telegram-bot-api-secret-token", "x-slack-signature", "x-hub-signature-256", "x-signature-ed25519",
];
/** Field names that hold a credential wherever they appear (top level or one object down). */
const SECRET_FIELDS = ["apiKey", "api_key", "key", "token", "accessToken", "access_token", "botToken", "secret", "clientSecret", "client_secret", "password", "cookie", "authorization"];

/** The paths pino blanks out ("[redacted]") in every line, for every svc process. */
export const REDACTED_PATHS: readonly string[] = [
  ...SECRET_HEADERS.flatMap((h) => [`req.headers["${h}"]`, `headers["${h}"]`, `res.headers["${h}"]`]),
  ...SECRET_FIELDS.flatMap((f) => [f, `*.${f}`]),
  ...SECRET_SETTINGS.flatMap((s) => [s, `*.${s}`]),
];

/** What every log line written while serving one request carries (the API's `x-request-id`). */
export interface LogContext {
  readonly request_id: string;
}

const context = new AsyncLocalStorage<LogContext>();

/**
 * Runs `fn` with `ctx` in every log line written inside it, by any logger from createLogger,
 * however deep the call (a repository, billing, the mailer) and after an await.
 */
export function withLogContext<T>(ctx: LogContext, fn: () => T): T {
  return context.run(ctx, fn);
}

export interface LoggerOptions {
  /** Which process writes (`api`, `worker`, `cli`, `bot-telegram`…): in every line as `app`. */
  readonly app?: string;
  /** Where lines go (default stdout). */
  readonly destination?: DestinationStream;
}

/**
 * The one logger factory: JSON lines on stdout, secrets redacted (credentials in headers and
 * fields, every secret setting), errors written without the parameters of a failed statement
 * (errorForLog), so a log line never copies request data or a key. A line written while a
 * request is served carries its request_id (withLogContext).
 */
export function createLogger(level: string, o: LoggerOptions | DestinationStream = {}): Logger {
  const opts: LoggerOptions = "write" in o ? { destination: o } : o;
  const options = {
    level,
    redact: { paths: [...REDACTED_PATHS], censor: "[redacted]" },
    serializers: { err: errorForLog },
    ...(opts.app ? { base: { pid: process.pid, hostname: hostname(), app: opts.app } } : {}),
    // The request being served, if any (withLogContext); a line's own request_id wins.
    mixin: () => context.getStore() ?? {},
  };
  return opts.destination ? pino(options, opts.destination) : pino(options);
}
