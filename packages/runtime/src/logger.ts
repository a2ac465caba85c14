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

/** What a log line never shows: these headers' values, and fields with these names (top or one object down). */
export const LOG_SECRETS = { headers: SECRET_HEADERS, names: [...SECRET_FIELDS, ...SECRET_SETTINGS] } as const;

const CENSOR = "[redacted]";
const SECRET_HEADER_SET: ReadonlySet<string> = new Set(SECRET_HEADERS);
/** Names whose values are blanked at the top of a line or one object down. */
const SECRET_NAMES: ReadonlySet<string> = new Set([...SECRET_FIELDS, ...SECRET_SETTINGS]);
/** What is blanked in a line's `headers`: the secret headers, and the names blanked anywhere one object down. */
const HEADER_NAMES: ReadonlySet<string> = new Set([...SECRET_HEADERS, ...SECRET_NAMES]);
/** Where request headers sit in a line: `headers`, `req.headers`, `res.headers`. */
const HEADER_HOLDERS: ReadonlySet<string> = new Set(["req", "res"]);

type Fields = Record<string, unknown>;
interface ChildOptions { readonly formatters?: { readonly log?: (line: Fields) => Fields } & Record<string, unknown> }
const isObject = (v: unknown): v is Fields => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * A copy of `o` with its prototype and every own property (an Error keeps its message and stack),
 * each made configurable so that it can be replaced: a frozen or read-only object, or an accessor,
 * is copied, never written to or called.
 */
function copyOf(o: Fields): Fields {
  const out = Object.create(Object.getPrototypeOf(o) as object | null) as Fields;
  for (const k of Reflect.ownKeys(o)) {
    const d = Object.getOwnPropertyDescriptor(o, k) as PropertyDescriptor;
    Object.defineProperty(out, k, "value" in d ? { ...d, writable: true, configurable: true } : { ...d, configurable: true });
  }
  return out;
}

/** Sets `k` on a copy made by `copyOf` (an accessor there is replaced, not called). */
const put = (o: Fields, k: string, value: unknown): void => void Object.defineProperty(o, k, { value, enumerable: true, writable: true, configurable: true });

/** `o` with the keys in `names` blanked, or `o` itself when none is there (never changed in place). */
function blanked(o: Fields, names: ReadonlySet<string>): Fields {
  let out: Fields | null = null;
  for (const k of Object.keys(o)) {
    if (!names.has(k)) continue;
    // An accessor is blanked without being called; an undefined value is left out of the line anyway.
    const d = Object.getOwnPropertyDescriptor(o, k) as PropertyDescriptor;
    if (!("value" in d) || d.value !== undefined) put((out ??= copyOf(o)), k, CENSOR);
  }
  return out ?? o;
}

/**
 * A line's fields with every credential blanked ("[redacted]"): the secret headers under
 * `headers`, `req.headers` and `res.headers`; every field named like a credential or a secret
 * setting at the top of the line or one object down. The caller's objects are copied where a
 * value is blanked, never changed. (pino's own `redact` option walked its 106 paths on every line,
 * 70.8 µs a line on node-svc against 1.8 for this one pass over the line's keys: decision 0114.)
 */
export function redactSecrets(line: Fields): Fields {
  let out: Fields | null = null;
  for (const k of Object.keys(line)) {
    const v = line[k];
    let next: unknown = v;
    if (SECRET_NAMES.has(k)) {
      if (v !== undefined) next = CENSOR;
    } else if (isObject(v)) {
      next = blanked(v, k === "headers" ? HEADER_NAMES : SECRET_NAMES);
      if (HEADER_HOLDERS.has(k) && isObject((next as Fields).headers)) {
        const headers = blanked((next as Fields).headers as Fields, SECRET_HEADER_SET);
        if (headers !== (next as Fields).headers) {
          next = next === v ? copyOf(v) : next;
          put(next as Fields, "headers", headers);
        }
      }
    }
    if (next !== v) put((out ??= copyOf(line)), k, next);
  }
  return out ?? line;
}

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
    formatters: { log: redactSecrets, bindings: redactSecrets },
    // Objects a message interpolates (`%j`, `%o`) are blanked as well.
    hooks: {
      logMethod(this: Logger, args: unknown[], method: (...a: unknown[]) => void) {
        for (let i = typeof args[0] === "string" ? 1 : 2; i < args.length; i++) {
          if (isObject(args[i])) args[i] = redactSecrets(args[i] as Fields);
        }
        method.apply(this, args);
      },
    },
    serializers: { err: errorForLog },
    ...(opts.app ? { base: { pid: process.pid, hostname: hostname(), app: opts.app } } : {}),
  };
  const logger = opts.destination ? pino(options, opts.destination) : pino(options);
  // pino formats the root's bindings only: a child's, and bindings set later, are blanked here (a
  // child inherits these from the root). A child's own `formatters.log` runs before the blanking.
  const child = logger.child;
  logger.child = function (this: Logger, bindings: Record<string, unknown>, childOptions?: ChildOptions) {
    const own = childOptions?.formatters?.log;
    const o = own ? { ...childOptions, formatters: { ...childOptions.formatters, log: (line: Fields) => redactSecrets(own(line)) } } : childOptions;
    // Missing bindings are pino's to refuse.
    return child.call(this, bindings == null ? bindings : redactSecrets(bindings), o as never);
  } as Logger["child"];
  const setBindings = logger.setBindings;
  logger.setBindings = function (this: Logger, bindings: Record<string, unknown>) {
    setBindings.call(this, redactSecrets(bindings));
  };
  return logger;
}
