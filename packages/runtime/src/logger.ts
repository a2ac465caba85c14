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

/**
 * A logger whose every line carries the request being served (the API's `x-request-id`). The API
 * hands it to what logs on a request's behalf (billing, the mailer, sign-in); there is no implicit
 * per-request context, since AsyncLocalStorage's promise hooks cost every promise in the process
 * (about a tenth of the API's CPU per check on Node 20; decision 0110).
 */
export function requestLogger(logger: Logger, requestId: string): Logger {
  return logger.child({ request_id: requestId });
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
 * (errorForLog), so a log line never copies request data or a key. Lines about a request carry
 * its request_id (requestLogger, or the field given explicitly).
 */
export function createLogger(level: string, o: LoggerOptions | DestinationStream = {}): Logger {
  const opts: LoggerOptions = "write" in o ? { destination: o } : o;
  const options = {
    level,
    redact: { paths: [...REDACTED_PATHS], censor: "[redacted]" },
    serializers: { err: errorForLog },
    ...(opts.app ? { base: { pid: process.pid, hostname: hostname(), app: opts.app } } : {}),
  };
  return opts.destination ? pino(options, opts.destination) : pino(options);
}
