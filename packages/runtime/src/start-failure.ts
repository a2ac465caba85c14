/** Codes of a database that cannot be reached or opened, as node and PostgreSQL (SQLSTATE) name them. */
const NETWORK_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ENOTFOUND", "EAI_AGAIN", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH"]);
// 28000/28P01: authentication; 3D000: no such database; 57P03: starting up or shutting down.
// A data directory (or a file in it) that cannot be made or written.
const FILE_CODES = new Set(["EACCES", "EPERM", "EROFS", "ENOTDIR", "ENOSPC", "EEXIST"]);
const POSTGRES_CODES = new Set(["28000", "28P01", "3D000", "57P03"]);

/** Where DATABASE_URL points, without its user or password. */
function databaseWhere(url: string): string {
  try {
    const u = new URL(url);
    return `${u.host}${u.pathname}`;
  } catch {
    return "DATABASE_URL";
  }
}

/**
 * The line a process prints when it cannot start. A database it cannot reach or open, or a data
 * directory it cannot write, is an operator's setting, said in one line naming the variable (never
 * DATABASE_URL's password); anything else is unexpected and keeps its stack trace.
 */
export function startFailureLine(app: string, e: unknown, s: { readonly DATABASE_URL?: string | undefined }): string {
  const code = (e as { code?: unknown } | null)?.code;
  const message = e instanceof Error ? e.message : String(e);
  if (s.DATABASE_URL && typeof code === "string" && (NETWORK_CODES.has(code) || POSTGRES_CODES.has(code))) {
    return `${app}: cannot open the database at ${databaseWhere(s.DATABASE_URL)} (DATABASE_URL): ${message.split("\n")[0] ?? ""}`;
  }
  const path = (e as { path?: unknown } | null)?.path;
  if (typeof code === "string" && FILE_CODES.has(code) && typeof path === "string") {
    return `${app}: cannot write ${path} (SVC_DATA_DIR: a directory this user may create and write): ${message.split("\n")[0] ?? ""}`;
  }
  return `${app} failed to start: ${e instanceof Error ? e.stack : message}`;
}

/** The line a server prints when it cannot listen (a port in use, an address this machine does not have). */
export function listenFailureLine(app: string, e: unknown, s: { readonly HOST: string; readonly PORT: number }): string {
  const code = (e as { code?: unknown } | null)?.code;
  const why = code === "EADDRINUSE" ? "the port is in use by another process"
    : code === "EACCES" ? "permission denied (ports below 1024 need privileges)"
    : code === "EADDRNOTAVAIL" || code === "ENOTFOUND" || code === "EAI_AGAIN" ? "this machine has no such address"
    : (e instanceof Error ? e.message : String(e)).split("\n")[0];
  return `${app}: cannot listen on ${s.HOST}:${s.PORT}: ${why}${typeof code === "string" ? ` (${code})` : ""}; set PORT or HOST`;
}
