import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { extname, resolve } from "node:path";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import type { EntityType } from "@svc/core";
import { ENTITY_TYPES } from "../commands/shared.js";
import { CliError, EXIT } from "../exit.js";

export const INPUT_FORMATS = ["text", "csv", "tsv", "jsonl"] as const;
export type InputFormat = (typeof INPUT_FORMATS)[number];

/** One line of input: an entity to screen, or a line that cannot be one (reported and skipped). */
export type InputItem =
  | { readonly kind: "entity"; readonly line: number; readonly value: string; readonly type?: EntityType }
  | { readonly kind: "bad"; readonly line: number; readonly reason: string };

export interface InputOptions {
  readonly format?: InputFormat;
  /** CSV: header name (case-insensitive) or 1-based column number. */
  readonly column?: string;
  /** CSV: the first row is data, not a header. */
  readonly noHeader?: boolean;
  /** JSONL: the field that holds the entity (default entity_value, then entity, value). */
  readonly field?: string;
}

export interface OpenedInput {
  readonly format: InputFormat;
  /** Size in bytes when known (a regular file), for progress and ETA. */
  readonly totalBytes: number | null;
  /** Bytes read so far. */
  bytesRead(): number;
  /** A description for messages, e.g. the column that was chosen. */
  readonly notes: string[];
  items(): AsyncGenerator<InputItem>;
}

/** Longest value the API accepts; longer lines are reported, not screened. */
const MAX_VALUE = 4096;
const CANDIDATE_COLUMNS = ["entity_value", "entity", "value", "indicator", "domain", "url", "host", "hostname", "email", "address", "wallet", "ip", "ip_address", "phone", "handle", "account"];
const FIELD_CANDIDATES = ["entity_value", "entity", "value"];

export function formatFromName(name: string): InputFormat {
  switch (extname(name).toLowerCase()) {
    case ".csv":
      return "csv";
    case ".tsv":
    case ".tab":
      return "tsv";
    case ".jsonl":
    case ".ndjson":
    case ".json":
      return "jsonl";
    default:
      return "text";
  }
}

/**
 * Opens a batch input (`-` is standard input). Missing, unreadable or directory paths are usage
 * errors raised here, before any output; problems inside the file are per-line `bad` items.
 */
export async function openInput(path: string, options: InputOptions, io: { stdin: NodeJS.ReadableStream; cwd: string }): Promise<OpenedInput> {
  let source: Readable;
  let totalBytes: number | null = null;
  let format: InputFormat;
  if (path === "-") {
    source = io.stdin as Readable;
    format = options.format ?? "text";
  } else {
    const full = resolve(io.cwd, path);
    try {
      const st = await stat(full);
      if (st.isDirectory()) throw new CliError(`${path} is a directory, not a file.`, EXIT.usage, "Give the path of a text, CSV or JSONL file, or - for standard input.");
      if (st.isFile()) totalBytes = st.size;
    } catch (e) {
      throw fileError(e, path);
    }
    format = options.format ?? formatFromName(path);
    source = createReadStream(full);
    // Surface open errors (EACCES) as usage errors before reading starts.
    await new Promise<void>((ok, fail) => {
      source.once("open", () => ok());
      source.once("error", (e) => fail(fileError(e, path)));
    });
  }
  // Progress counts the bytes of lines handed out, not of bytes read ahead into buffers.
  const counter = { bytes: 0 };
  const notes: string[] = [];
  const items =
    format === "csv" || format === "tsv" ? () => csvItems(lines(source, counter), format === "tsv" ? "\t" : ",", options, notes)
    : format === "jsonl" ? () => jsonlItems(lines(source, counter), options.field)
    : () => textItems(lines(source, counter));
  return { format, totalBytes, bytesRead: () => counter.bytes, notes, items };
}

function fileError(e: unknown, path: string): CliError {
  if (e instanceof CliError) return e;
  const code = (e as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return new CliError(`File not found: ${path}`, EXIT.usage, "Check the path, or pass - to read from standard input.");
  if (code === "EACCES" || code === "EPERM") return new CliError(`Cannot read ${path}: permission denied.`, EXIT.usage, "Check the file's permissions (ls -l), or pipe it in: cat file | svc batch -");
  if (code === "EISDIR") return new CliError(`${path} is a directory, not a file.`, EXIT.usage, "Give the path of a text, CSV or JSONL file.");
  return new CliError(`Cannot read ${path}: ${e instanceof Error ? e.message : String(e)}`, EXIT.usage);
}

function checkValue(line: number, raw: string): InputItem {
  const value = raw.trim();
  if (value.length > MAX_VALUE) return { kind: "bad", line, reason: `longer than ${MAX_VALUE} characters` };
  return { kind: "entity", line, value };
}

/** A per-line type must be one the API knows; otherwise the line is bad (not the whole request). */
function withType(item: InputItem, type: string | undefined): InputItem {
  const t = type?.trim();
  if (item.kind !== "entity" || t === undefined || t === "") return item;
  if (!(ENTITY_TYPES as readonly string[]).includes(t)) return { kind: "bad", line: item.line, reason: `unknown type "${t}" (use one of ${ENTITY_TYPES.join(", ")})` };
  return { ...item, type: t as EntityType };
}

async function* lines(source: Readable, counter: { bytes: number }): AsyncGenerator<string> {
  source.setEncoding("utf8");
  for await (const line of createInterface({ input: source, crlfDelay: Infinity })) {
    counter.bytes += Buffer.byteLength(line) + 1;
    yield line;
  }
}

/** One entity per line; blank lines and `#` comments are skipped silently. */
async function* textItems(input: AsyncIterable<string>): AsyncGenerator<InputItem> {
  let n = 0;
  for await (const raw of input) {
    n++;
    const text = n === 1 ? raw.replace(/^\uFEFF/, "") : raw;
    const t = text.trim();
    if (t === "" || t.startsWith("#")) continue;
    yield checkValue(n, t);
  }
}

/** One JSON value per line: a string, or an object with the entity in `field` (and an optional `type`). */
async function* jsonlItems(input: AsyncIterable<string>, field: string | undefined): AsyncGenerator<InputItem> {
  let n = 0;
  for await (const raw of input) {
    n++;
    const text = (n === 1 ? raw.replace(/^\uFEFF/, "") : raw).trim();
    if (text === "") continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      yield { kind: "bad", line: n, reason: "not valid JSON" };
      continue;
    }
    if (typeof parsed === "string") {
      yield checkValue(n, parsed);
      continue;
    }
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
      yield { kind: "bad", line: n, reason: "expected a JSON object or string" };
      continue;
    }
    const obj = parsed as Record<string, unknown>;
    const key = field ?? FIELD_CANDIDATES.find((k) => k in obj);
    const value = key === undefined ? undefined : obj[key];
    if (typeof value !== "string" || value.trim() === "") {
      yield { kind: "bad", line: n, reason: key === undefined || value === undefined ? `no "${field ?? "entity_value"}" field` : `"${key}" is not a non-empty string` };
      continue;
    }
    yield withType(checkValue(n, value), typeof obj.type === "string" ? obj.type : undefined);
  }
}

/** Longest a quoted field may run over line breaks before the row is declared unreadable. */
const MAX_ROW_LINES = 20;

type Split = { readonly fields: string[] } | { readonly open: true } | { readonly error: string };

/**
 * One RFC 4180 record: fields optionally in double quotes, `""` for a quote inside quotes,
 * quoted fields may hold delimiters and line breaks. A quote inside an unquoted field is kept as
 * a character (as spreadsheets write them); text after a closing quote is an error.
 */
export function splitRecord(text: string, delimiter: string): Split {
  const fields: string[] = [];
  let i = 0;
  const n = text.length;
  for (;;) {
    if (text[i] === '"') {
      let value = "";
      i++;
      for (;;) {
        const q = text.indexOf('"', i);
        if (q < 0) return { open: true };
        value += text.slice(i, q);
        if (text[q + 1] === '"') {
          value += '"';
          i = q + 2;
          continue;
        }
        i = q + 1;
        break;
      }
      if (i < n && text[i] !== delimiter) return { error: `unexpected text after a closing quote in field ${fields.length + 1}` };
      fields.push(value);
    } else {
      const d = text.indexOf(delimiter, i);
      fields.push(text.slice(i, d < 0 ? n : d));
      i = d < 0 ? n : d;
    }
    if (i >= n) return { fields };
    i++; // the delimiter
    if (i === n) {
      fields.push("");
      return { fields };
    }
  }
}

/**
 * CSV (or TSV) with a header row unless `noHeader`, read line by line. A row that cannot be read
 * (a quote never closed, text after a quote) is reported and reading resumes on the next line,
 * so one broken row never swallows the rest of the file.
 */
async function* csvItems(input: AsyncIterable<string>, delimiter: string, options: InputOptions, notes: string[]): AsyncGenerator<InputItem> {
  let col = -1;
  let typeCol = -1;
  let first = true;
  let physical = 0;
  let pending: { start: number; lines: string[] } | null = null;
  const replay: { n: number; text: string }[] = [];

  function* record(start: number, fields: string[]): Generator<InputItem> {
    if (first) {
      first = false;
      const header = options.noHeader ? null : fields.map((h) => h.trim().toLowerCase());
      col = chooseColumn(header, fields.length, options.column);
      if (header) {
        typeCol = header.indexOf("type");
        if (typeCol === col) typeCol = -1;
        notes.push(`reading column ${col + 1} ("${fields[col] ?? ""}")${typeCol >= 0 ? ` with types from column ${typeCol + 1}` : ""}`);
        return;
      }
      notes.push(`reading column ${col + 1}`);
    }
    const cell = fields[col];
    if (cell === undefined || cell.trim() === "") {
      yield { kind: "bad", line: start, reason: cell === undefined ? `row has no column ${col + 1}` : "empty cell" };
      return;
    }
    yield withType(checkValue(start, cell), typeCol >= 0 ? fields[typeCol] : undefined);
  }

  function* feed(n: number, text: string): Generator<InputItem> {
    if (pending === null) {
      if (text.trim() === "") return;
      pending = { start: n, lines: [text] };
    } else pending.lines.push(text);
    const r = splitRecord(pending.lines.join("\n"), delimiter);
    if ("fields" in r) {
      const start = pending.start;
      pending = null;
      yield* record(start, r.fields);
      return;
    }
    if ("open" in r && pending.lines.length < MAX_ROW_LINES) return;
    const broken = pending;
    pending = null;
    yield { kind: "bad", line: broken.start, reason: "error" in r ? `unreadable CSV row (${r.error})` : "unreadable CSV row (a quote is never closed)" };
    // Read again from the line after the broken row's first line.
    broken.lines.slice(1).forEach((t, k) => replay.push({ n: broken.start + 1 + k, text: t }));
  }

  for await (const raw of input) {
    physical++;
    yield* feed(physical, physical === 1 ? raw.replace(/^\uFEFF/, "") : raw);
    while (replay.length > 0) {
      const next = replay.shift() as { n: number; text: string };
      yield* feed(next.n, next.text);
    }
  }
  // End of input inside an open quote: that row is broken; the lines after it are read again.
  while (pending !== null || replay.length > 0) {
    if (pending !== null) {
      const broken: { start: number; lines: string[] } = pending;
      pending = null;
      yield { kind: "bad", line: broken.start, reason: "unreadable CSV row (a quote is never closed)" };
      broken.lines.slice(1).forEach((t, k) => replay.push({ n: broken.start + 1 + k, text: t }));
    }
    while (replay.length > 0) {
      const next = replay.shift() as { n: number; text: string };
      yield* feed(next.n, next.text);
    }
  }
}

function chooseColumn(header: string[] | null, width: number, column: string | undefined): number {
  if (column !== undefined) {
    if (/^\d+$/.test(column)) {
      const i = Number(column) - 1;
      if (i < 0 || i >= width) throw new CliError(`--column ${column} is out of range: the first row has ${width} column(s).`, EXIT.usage, "Columns are numbered from 1.");
      return i;
    }
    if (!header) throw new CliError(`--column "${column}" names a header, but --no-header says there is none.`, EXIT.usage, "Give a column number instead (1 = first).");
    const i = header.indexOf(column.trim().toLowerCase());
    if (i < 0) throw new CliError(`No column named "${column}". The header has: ${header.join(", ")}.`, EXIT.usage, "Pick one of those names, or a column number (1 = first).");
    return i;
  }
  if (!header) return 0;
  const i = CANDIDATE_COLUMNS.map((c) => header.indexOf(c)).find((x) => x >= 0);
  return i ?? 0;
}
