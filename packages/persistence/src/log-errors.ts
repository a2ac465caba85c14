import { QueryFailedError } from "typeorm";

/** Fields of a database error that may hold the values of a statement (parameters, rows, keys). */
const VALUE_FIELDS = new Set(["parameters", "params", "values", "detail", "where", "internalQuery", "body"]);

/**
 * An error as it may be written to a log: type, message, stack, code and the SQL text, but never
 * the statement's parameters. TypeORM's QueryFailedError keeps `parameters` (API keys' hashes,
 * entity values, metadata, anything a request sent) and the driver's error keeps `detail`
 * ("Key (x)=(value) already exists"); a log line must not become a copy of customer data.
 * Use as pino's `err` serializer.
 */
export function errorForLog(err: unknown, depth = 0): unknown {
  if (!(err instanceof Error)) return err;
  const out: Record<string, unknown> = { type: err.constructor.name, message: err.message, stack: err.stack };
  for (const [k, v] of Object.entries(err)) {
    if (VALUE_FIELDS.has(k) || k === "driverError" || k === "cause" || k in out) continue;
    if (v === null || ["string", "number", "boolean"].includes(typeof v)) out[k] = v;
  }
  if (err instanceof QueryFailedError) {
    const driver = (err as { driverError?: unknown }).driverError;
    if (driver && typeof driver === "object") {
      const d = driver as Record<string, unknown>;
      out.driver = Object.fromEntries(["code", "severity", "routine", "table", "column", "constraint"].filter((k) => typeof d[k] === "string").map((k) => [k, d[k]]));
    }
  }
  if (err.cause !== undefined && depth < 3) out.cause = errorForLog(err.cause, depth + 1);
  return out;
}
