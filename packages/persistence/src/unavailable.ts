/**
 * Whether an error means "the database cannot be reached right now" (down, restarting, a network
 * that stopped answering) rather than a bug or bad data. Such an error is worth retrying: the API
 * answers 503 `service.unavailable` with Retry-After, and the pool reconnects by itself.
 */
const NETWORK_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN", "ENOTFOUND"]);
/** SQLSTATE: class 08 (connection exception), 57P01–57P03 (admin/crash shutdown, cannot connect now), 53300 (too many connections). */
const SQLSTATE = /^(?:08\w{3}|57P0[123]|53300)$/;
const MESSAGES = [
  "Connection terminated",
  "timeout exceeded when trying to connect",
  "Query read timeout",
  "Client has encountered a connection error and is not queryable",
  "Connection ended unexpectedly",
  "the database system is starting up",
  "the database system is shutting down",
];

export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== "object" || depth > 4) return false;
  const e = err as { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === "string" && (NETWORK_CODES.has(e.code) || SQLSTATE.test(e.code))) return true;
  if (typeof e.message === "string" && MESSAGES.some((m) => (e.message as string).includes(m))) return true;
  // AggregateError (connect to several addresses), TypeORM's QueryFailedError.driverError, Error.cause.
  if (Array.isArray(e.errors) && e.errors.some((x) => isDatabaseUnavailable(x, depth + 1))) return true;
  return isDatabaseUnavailable(e.driverError, depth + 1) || isDatabaseUnavailable(e.cause, depth + 1);
}
