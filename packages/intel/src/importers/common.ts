import type { ImportOptions, IntelRecord } from "./types.js";

export const MAX_VALUE_LENGTH = 2048;

/** Splits on CRLF, LF or CR; drops a leading byte-order mark. */
export function splitLines(text: string): string[] {
  return text.replace(/^\uFEFF/, "").split(/\r\n|\n|\r/);
}

// eslint-disable-next-line no-control-regex -- looking for control characters is the point
const CONTROL_RE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/;

/** Why `value` cannot be a list entry, or null when it can. */
export function valueProblem(value: string): string | null {
  if (value.length === 0) return "empty value";
  if (value.length > MAX_VALUE_LENGTH) return `value longer than ${MAX_VALUE_LENGTH} characters`;
  if (CONTROL_RE.test(value)) return "contains control, bidi or zero-width characters";
  if (/\s/.test(value)) return "contains whitespace";
  return null;
}

export function normaliseValue(raw: string, type: string | undefined, preserveCase: boolean | undefined): string {
  const v = raw.trim();
  return preserveCase === true || type === "wallet" ? v : v.toLowerCase();
}

/** Builds a record, leaving out absent optional fields (exactOptionalPropertyTypes-friendly). */
export function makeRecord(
  value: string,
  list: "allow" | "block",
  source: string,
  type?: string,
  label?: string,
): IntelRecord {
  return {
    value,
    ...(type !== undefined && type !== "" ? { type } : {}),
    list,
    ...(label !== undefined && label !== "" ? { label } : {}),
    source,
  };
}

export function checkOptions(opts: ImportOptions): void {
  if (typeof opts.source !== "string" || opts.source.trim() === "") throw new TypeError("@svc/intel importer: `source` is required");
}

/** Tracks (list, value) pairs already emitted, so duplicates are reported once. */
export class Seen {
  readonly #first = new Map<string, number>();
  /** The line of the first occurrence when this pair was seen before, else null (and records it). */
  check(list: string, value: string, line: number): number | null {
    const key = `${list}\u0000${value}`;
    const prev = this.#first.get(key);
    if (prev !== undefined) return prev;
    this.#first.set(key, line);
    return null;
  }
}
