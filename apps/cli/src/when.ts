import { CliError, EXIT } from "./exit.js";

const UNITS: Readonly<Record<string, number>> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/**
 * A point in time for --since/--until: ISO 8601 (`2026-11-01`, `2026-11-01T12:00:00Z`) or an
 * age such as `30m`, `24h`, `7d`, `2w` (that long before now). Returned as ISO 8601 UTC.
 */
export function parseWhen(value: string, option: string, now: Date = new Date()): string {
  const rel = /^(\d{1,6})([mhdw])$/.exec(value.trim());
  if (rel) return new Date(now.getTime() - Number(rel[1]) * (UNITS[rel[2] as string] as number)).toISOString();
  const text = /^\d{4}-\d{2}-\d{2}$/.test(value.trim()) ? `${value.trim()}T00:00:00Z` : value.trim();
  const t = Date.parse(text);
  if (!/^\d{4}-\d{2}-\d{2}/.test(text) || !Number.isFinite(t)) {
    throw new CliError(`${option} ${JSON.stringify(value)} is not a date.`, EXIT.usage, `Use a date like 2026-11-01, a time like 2026-11-01T12:00:00Z, or an age like 24h, 7d, 2w.`);
  }
  return new Date(t).toISOString();
}
