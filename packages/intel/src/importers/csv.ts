import { checkOptions, makeRecord, normaliseValue, Seen, valueProblem } from "./common.js";
import type { ImportOptions, ImportResult } from "./types.js";

export interface CsvRow {
  /** 1-based physical line the row starts on (quoted fields may span lines). */
  readonly line: number;
  readonly fields: string[];
}

export interface CsvReadResult {
  readonly rows: CsvRow[];
  /** Rows that could not be read (unterminated quote, stray quote); the reader resynchronises on the next line. */
  readonly errors: { readonly line: number; readonly reason: string }[];
}

/**
 * A small RFC 4180 reader: comma-separated, fields optionally in double quotes, `""` for a quote
 * inside a quoted field, quoted fields may contain commas and line breaks, CRLF / LF / CR line
 * ends. Blank lines are dropped. Not a streaming parser: intended for feeds of a few MB.
 */
export function readCsv(text: string): CsvReadResult {
  const src = text.replace(/^\uFEFF/, "");
  const rows: CsvRow[] = [];
  const errors: { line: number; reason: string }[] = [];
  let line = 1;
  let i = 0;
  const n = src.length;
  const atEol = (j: number): boolean => j >= n || src[j] === "\n" || src[j] === "\r";
  const skipEol = (j: number): number => {
    if (src[j] === "\r" && src[j + 1] === "\n") return j + 2;
    return j + 1;
  };
  /** Skips to the start of the next physical line, counting it. */
  const resync = (j: number): number => {
    while (j < n && src[j] !== "\n" && src[j] !== "\r") j++;
    if (j < n) {
      j = skipEol(j);
      line++;
    }
    return j;
  };

  while (i < n) {
    const startLine = line;
    if (atEol(i)) {
      // blank line
      i = skipEol(i);
      line++;
      continue;
    }
    const fields: string[] = [];
    let bad: string | null = null;
    for (;;) {
      let field = "";
      if (src[i] === '"') {
        i++;
        let closed = false;
        while (i < n) {
          const c = src[i] as string;
          if (c === '"') {
            if (src[i + 1] === '"') {
              field += '"';
              i += 2;
              continue;
            }
            i++;
            closed = true;
            break;
          }
          if (c === "\r" || c === "\n") {
            field += "\n";
            i = skipEol(i);
            line++;
            continue;
          }
          field += c;
          i++;
        }
        if (!closed) {
          bad = "unterminated quoted field";
          break;
        }
        if (!atEol(i) && src[i] !== ",") {
          bad = "characters after a closing quote";
          break;
        }
      } else {
        while (!atEol(i) && src[i] !== ",") {
          if (src[i] === '"') {
            bad = "quote inside an unquoted field";
            break;
          }
          field += src[i];
          i++;
        }
        if (bad !== null) break;
      }
      fields.push(field);
      if (src[i] === ",") {
        i++;
        continue;
      }
      break; // end of line or input
    }
    if (bad !== null) {
      errors.push({ line: startLine, reason: bad });
      if (bad === "unterminated quoted field") break; // the rest of the input is inside the quote
      i = resync(i);
      continue;
    }
    if (i < n) {
      i = skipEol(i);
      line++;
    }
    rows.push({ line: startLine, fields });
  }
  return { rows, errors };
}

const KNOWN_COLUMNS = ["entity", "type", "label", "source", "list"] as const;
type Column = (typeof KNOWN_COLUMNS)[number];

/**
 * CSV feeds with a header row naming at least `entity`, and optionally `type`, `label`,
 * `source` and `list` (allow|block), in any order. An empty `source` cell falls back to
 * `opts.source`, an empty `list` cell to `opts.list` (default "block").
 */
export function parseIntelCsv(text: string, opts: ImportOptions): ImportResult {
  checkOptions(opts);
  const result: ImportResult = { records: [], skipped: [] };
  const { rows, errors } = readCsv(text);
  result.skipped.push(...errors.map((e) => ({ line: e.line, reason: e.reason })));
  const [header, ...body] = rows;
  if (header === undefined) {
    if (errors.length === 0) result.skipped.push({ line: 0, reason: "no header row" });
    return result;
  }
  const columns = new Map<Column, number>();
  const names = header.fields.map((f) => f.trim().toLowerCase());
  for (const [idx, name] of names.entries()) {
    if ((KNOWN_COLUMNS as readonly string[]).includes(name) && !columns.has(name as Column)) columns.set(name as Column, idx);
  }
  const entityCol = columns.get("entity");
  if (entityCol === undefined) {
    result.skipped.push({ line: header.line, reason: `header row has no "entity" column (got: ${names.join(", ")})` });
    return result;
  }
  const cell = (fields: string[], col: Column): string => {
    const idx = columns.get(col);
    return idx === undefined ? "" : (fields[idx] ?? "").trim();
  };
  const seen = new Seen();
  for (const { line, fields } of body) {
    if (fields.length !== header.fields.length) {
      result.skipped.push({ line, reason: `expected ${header.fields.length} fields, got ${fields.length}` });
      continue;
    }
    const rawEntity = (fields[entityCol] ?? "").trim();
    const problem = valueProblem(rawEntity);
    if (problem !== null) {
      result.skipped.push({ line, reason: problem });
      continue;
    }
    const type = cell(fields, "type").toLowerCase() || opts.type;
    if (type !== undefined && !/^[a-z][a-z0-9_]*$/.test(type)) {
      result.skipped.push({ line, reason: `invalid type "${type.slice(0, 32)}"` });
      continue;
    }
    const listCell = cell(fields, "list").toLowerCase();
    if (listCell !== "" && listCell !== "allow" && listCell !== "block") {
      result.skipped.push({ line, reason: `list must be "allow" or "block", got "${listCell.slice(0, 32)}"` });
      continue;
    }
    const list = listCell === "" ? (opts.list ?? "block") : listCell;
    const value = normaliseValue(rawEntity, type, opts.preserveCase);
    const dup = seen.check(list, value, line);
    if (dup !== null) {
      result.skipped.push({ line, reason: `duplicate of line ${dup}` });
      continue;
    }
    const label = cell(fields, "label") || opts.label;
    const source = cell(fields, "source") || opts.source;
    result.records.push(makeRecord(value, list, source, type, label));
  }
  return result;
}
