import type { CheckFilters } from "@svc/core";
import pg from "pg";
import { to as copyTo } from "pg-copy-streams";
import { armQueryBound } from "../data-source.js";
import { guardWhileBorrowed } from "./raw-sql.js";

/**
 * The reading half of the audit export on PostgreSQL (csv-export.ts), loaded on the first export:
 * `pg` and `pg-copy-streams` stay out of a process on embedded PGlite (docs/decisions/0091).
 *
 * Each check's CSV record is kept by the database in `check_exports.line` (decision 0112: made by
 * `check_export_of` when the check is inserted), in the bytes the API makes of `exportSummaries`
 * with csv-stringify: formula-safe cells, csv-stringify's quoting, CRLF between records. The
 * export joins them: one statement per chunk of `chunkRows` lines returns the chunk's text as one
 * value, so no row becomes a JavaScript object and no text is scanned or formatted here. That
 * value comes by `COPY … TO STDOUT (FORMAT binary)`, which hands a text column over as its bytes
 * in the client encoding (UTF8, which node-pg always asks for): it never becomes a JavaScript
 * string. node-pg decodes every value of a query's result into one, and the API encoded it back;
 * with strings of a chunk's size (~3 MB) the API's peak memory during a large export was 264–274
 * MB, against 141–148 MB as bytes (decision 0116).
 *
 * Chunks follow the key (account, created_at, id), each on a connection of the DataSource's pool
 * that goes back as soon as the chunk is read; the next chunk is read while the reader takes this
 * one. No connection is held while a slow reader takes its bytes, and memory is about two chunks
 * (three while a chunk's pieces are joined).
 */
export const EXPORT_HEADER = "id,created_at,entity_type,entity_value,risk_score,risk_level,confidence,recommended_action,signals,ruleset,channel,key_id,prev_hash,record_hash\r\n";

const lit = (v: string): string => pg.escapeLiteral(v);

interface Keyset {
  /** `created_at` as PostgreSQL's text (full precision, with its offset). */
  readonly created_at: string;
  readonly id: string;
}

export interface PoolClient {
  query<T extends pg.Submittable>(submittable: T): T;
  query<R>(config: { text: string }): Promise<{ rows: R[] }>;
  release(err?: Error | boolean): void;
  on(event: "error", listener: (err: Error) => void): unknown;
  removeListener(event: "error", listener: (err: Error) => void): unknown;
}

/**
 * The CSV of the export rows `where` selects, header first, one statement per chunk of
 * `chunkRows` lines. The first chunk is read before anything is handed on, so a database that
 * cannot be reached fails the export before its first byte.
 */
export async function* chunks(pool: { connect(): Promise<PoolClient> }, where: string, chunkRows: number): AsyncGenerator<Buffer> {
  let chunk = await readChunk(pool, where, null, chunkRows);
  yield Buffer.from(EXPORT_HEADER);
  for (;;) {
    const pending = chunk.next ? readChunk(pool, where, chunk.next, chunkRows) : null;
    // Surfaced by the await below if the reader gets that far; a reader that stops lets it
    // finish, and its connection goes back to the pool.
    pending?.catch(() => {});
    if (chunk.text) yield chunk.text;
    if (!pending) return;
    chunk = await pending;
  }
}

/** The conditions of the account and its filters, as SQL with literals. */
export function whereOf(accountId: string, f: CheckFilters): string {
  const parts = [`account_id = ${lit(accountId)}`];
  if (f.type) parts.push(`entity_type = ${lit(f.type)}`);
  if (f.risk_level) parts.push(`risk_level = ${lit(f.risk_level)}`);
  if (f.since) parts.push(`created_at >= ${lit(f.since.toISOString())}::timestamptz`);
  if (f.until) parts.push(`created_at < ${lit(f.until.toISOString())}::timestamptz`);
  return parts.join(" AND ");
}

/**
 * Rows after a keyset. The plain bound on `created_at` says nothing more, but lets the planner
 * estimate the range (it cannot from the row comparison) and read it by the index.
 */
const keysetSql = (k: Keyset): string => {
  const at = `${lit(k.created_at)}::timestamptz`;
  return `created_at >= ${at} AND (created_at, id) > (${at}, ${lit(k.id)})`;
};

/**
 * The lines after `after`, up to `chunkRows` of them, each ending in CRLF, as one piece of bytes,
 * and `next`: the last one's key, or null when no row is left after this chunk. One statement:
 * the key is looked up by its own scan (OFFSET), and the lines reach `string_agg` in the order of
 * the subquery's index scan: a plain aggregate over one ordered subquery (no join, no grouping)
 * takes its rows as they come, the way PostgreSQL's documentation gives to order an aggregate's
 * input; `ORDER BY` inside the aggregate would sort the chunk again (twice the statement's time).
 */
async function readChunk(pool: { connect(): Promise<PoolClient> }, where: string, after: Keyset | null, chunkRows: number): Promise<{ text: Buffer | null; next: Keyset | null }> {
  // The statement fails on a connection that breaks while borrowed, and the connection is dropped below.
  const borrowed = guardWhileBorrowed(await pool.connect());
  const client = borrowed.client;
  try {
    const chunk = `SELECT created_at, id, line FROM check_exports WHERE ${where}${after ? ` AND ${keysetSql(after)}` : ""} ORDER BY created_at, id`;
    // Both scans walk the key's index in order and stop at the chunk's end. While the table's
    // statistics lag behind its growth (recent rows are what an export usually asks for), the
    // planner may expect a few hundred rows and gather every row of the range in a bitmap scan
    // and sort them, for each chunk. The transaction only scopes these settings.
    await client.query({ text: "BEGIN READ ONLY; SET LOCAL enable_bitmapscan = off; SET LOCAL enable_seqscan = off" });
    // The pool's bound on a query (the API's), for the COPY as a whole: read here to its end, not
    // at a reader's pace. Past it the connection is closed, which fails the COPY.
    const disarm = armQueryBound(client);
    let out: Buffer;
    try {
      const copy = client.query(copyTo(
        `COPY (SELECT (SELECT string_agg(line, E'\\r\\n') || E'\\r\\n' FROM (${chunk} LIMIT ${chunkRows}) c) AS text, last.created_at, last.id
                 FROM (SELECT 1) one LEFT JOIN (SELECT created_at::text AS created_at, id::text AS id FROM (${chunk} OFFSET ${chunkRows - 1} LIMIT 1) k) last ON true)
           TO STDOUT (FORMAT binary)`,
      ));
      const parts: Buffer[] = [];
      for await (const part of copy) parts.push(part as Buffer);
      out = Buffer.concat(parts);
    } finally {
      disarm();
    }
    const [text, createdAt, id] = binaryCopyRow(out, 3);
    await client.query({ text: "COMMIT" });
    borrowed.release();
    return { text: text ?? null, next: createdAt && id ? { created_at: createdAt.toString("utf8"), id: id.toString("utf8") } : null };
  } catch (e) {
    // After a failed statement the connection's state is not worth trusting, its transaction
    // may be open: it is closed, not reused.
    borrowed.release(e instanceof Error ? e : new Error(String(e)));
    throw e;
  }
}

/** The signature that opens `COPY … (FORMAT binary)`: then 32 bits of flags and the length of a header extension. */
const COPY_SIGNATURE = Buffer.from("PGCOPY\n\xff\r\n\0", "latin1");

/**
 * The one row of `COPY … TO STDOUT (FORMAT binary)` output with `fields` columns, each a view
 * of its stored bytes (a text column's are its UTF-8), null for NULL. Throws on anything else.
 */
export function binaryCopyRow(out: Buffer, fields: number): (Buffer | null)[] {
  const bad = (what: string): never => {
    throw new Error(`unexpected COPY output: ${what}`);
  };
  if (out.length < 21 || !out.subarray(0, 11).equals(COPY_SIGNATURE)) bad("no binary COPY signature");
  // Bits 16–31 of the flags are critical (bit 16: each row starts with an OID): none is expected.
  if ((out.readUInt32BE(11) & 0xffff0000) !== 0) bad("unexpected header flags");
  let at = 19 + out.readUInt32BE(15);
  const need = (n: number): void => void (at + n > out.length && bad("cut short"));
  need(2);
  if (out.readInt16BE(at) !== fields) bad(`not one row of ${fields} columns`);
  at += 2;
  const row: (Buffer | null)[] = [];
  for (let i = 0; i < fields; i++) {
    need(4);
    const len = out.readInt32BE(at);
    at += 4;
    if (len === -1) {
      row.push(null);
      continue;
    }
    if (len < 0) bad("a negative length");
    need(len);
    row.push(out.subarray(at, at + len));
    at += len;
  }
  need(2);
  if (out.readInt16BE(at) !== -1 || at + 2 !== out.length) bad("more than one row");
  return row;
}
