import type { CheckFilters } from "@svc/core";
import pg from "pg";
import { to as copyTo } from "pg-copy-streams";
import { guardWhileBorrowed } from "./raw-sql.js";

/**
 * The COPY half of the audit export (csv-export.ts), loaded on the first export from PostgreSQL:
 * `pg` and `pg-copy-streams` stay out of a process on embedded PGlite (docs/decisions/0091).
 *
 * The audit export made by PostgreSQL (decision 0085): `COPY (SELECT …) TO STDOUT (FORMAT csv)`
 * writes the CSV text itself, so no row becomes a JavaScript object or string. The bytes are
 * those the API makes of `exportSummaries` with csv-stringify (`escape_formulas`, CRLF):
 *
 * - formula-safe cells: a text cell starting with = + - @ tab CR or their full-width forms gets
 *   a leading `'` (csv-stringify's rule; numbers are left alone), and an empty text is NULL (COPY
 *   writes nothing for NULL but `""` for an empty string, where csv-stringify writes nothing for
 *   both): the cells of `check_exports` are stored so when the check is (decision 0112);
 * - quoting is COPY's, which is csv-stringify's with `quote_record_delimiter`: a cell with `"`,
 *   `,`, CR or LF is quoted and its `"` doubled;
 * - COPY ends a record with LF: `CrlfBlocks` makes it CRLF (an LF inside a quoted cell stays).
 *
 * The rows are read from `check_exports`, the export's columns of each check kept apart from the
 * wide audit records by the database (decision 0112).
 *
 * Rows are read in keyset-ordered chunks of CHUNK_ROWS, each one COPY on a connection of the
 * DataSource's pool, read at the database's pace into memory and the connection given back; the
 * next chunk is read while the reader takes this one. No connection is held while a slow reader
 * takes its bytes, and memory is two chunks at most.
 */
/** Bytes per piece handed to the reader. */
const BLOCK_BYTES = 64 * 1024;

const lit = (v: string): string => pg.escapeLiteral(v);

/**
 * The export's columns, in order: header name and the `check_exports` column holding its cells,
 * already formula-safe with empty text as NULL (migration 1796100000300).
 */
const COLUMNS: readonly (readonly [string, string])[] = [
  ["id", "id_cell"],
  ["created_at", "created_at_cell"],
  ["entity_type", "entity_type"],
  ["entity_value", "entity_value"],
  ["risk_score", "risk_score"],
  ["risk_level", "risk_level"],
  ["confidence", "confidence"],
  ["recommended_action", "recommended_action"],
  ["signals", "signals"],
  ["ruleset", "ruleset"],
  ["channel", "channel"],
  ["key_id", "key_id"],
  ["prev_hash", "prev_hash"],
  ["record_hash", "record_hash"],
];
const SELECT_LIST = COLUMNS.map(([name, column]) => (name === column ? column : `${column} AS "${name}"`)).join(", ");

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

/** The CSV of the checks `where` selects, one COPY per chunk of `chunkRows` rows. */
export async function* chunks(pool: { connect(): Promise<PoolClient> }, where: string, chunkRows: number): AsyncGenerator<Buffer> {
  let pending = readChunk(pool, where, null, chunkRows);
  for (;;) {
    const chunk = await pending;
    if (chunk.next) {
      pending = readChunk(pool, where, chunk.next, chunkRows);
      // Surfaced by the await above if the reader gets that far; a reader that stops lets it
      // finish, and its connection goes back to the pool.
      pending.catch(() => {});
    }
    yield* chunk.blocks;
    if (!chunk.next) return;
  }
}

/** The conditions of the account and its filters, as SQL with literals (COPY takes no parameters). */
export function whereOf(accountId: string, f: CheckFilters): string {
  const parts = [`account_id = ${lit(accountId)}`];
  // The filters' columns hold cells: compared with the cell of the value asked for.
  if (f.type) parts.push(`entity_type = export_cell(${lit(f.type)})`);
  if (f.risk_level) parts.push(`risk_level = export_cell(${lit(f.risk_level)})`);
  if (f.since) parts.push(`created_at >= ${lit(f.since.toISOString())}::timestamptz`);
  if (f.until) parts.push(`created_at < ${lit(f.until.toISOString())}::timestamptz`);
  return parts.join(" AND ");
}

/**
 * Rows after (`>`) or up to (`<=`) a keyset. The plain bound on `created_at` says nothing more,
 * but lets the planner estimate the range (it cannot from the row comparison) and read the
 * chunk by the index instead of scanning the table.
 */
const keysetSql = (op: ">" | "<=", k: Keyset): string => {
  const at = `${lit(k.created_at)}::timestamptz`;
  return `created_at ${op === ">" ? ">=" : "<="} ${at} AND (created_at, id) ${op} (${at}, ${lit(k.id)})`;
};

/**
 * The rows after `after` (the header first when null), up to `chunkRows` of them: their upper
 * bound is looked up first, then one COPY writes the rows up to it. `next` is that bound, or
 * null when no row is left after this chunk.
 */
async function readChunk(pool: { connect(): Promise<PoolClient> }, where: string, after: Keyset | null, chunkRows: number): Promise<{ blocks: Buffer[]; next: Keyset | null }> {
  // The COPY fails on a connection that breaks while borrowed, and the connection is dropped below.
  const borrowed = guardWhileBorrowed(await pool.connect());
  const client = borrowed.client;
  try {
    const from = after ? ` AND ${keysetSql(">", after)}` : "";
    // Both statements walk the account's index in order and stop at the chunk's end. While the
    // table's statistics lag behind its growth (recent rows are what an export usually asks
    // for), the planner expects a few hundred rows and would gather every row of the range in a
    // bitmap scan and sort them, for each chunk: 3–4 times the work. The transaction only
    // scopes these settings; its one read is the bound, converted to text for its one row.
    const result = await client.query<Keyset>({
      text: `BEGIN READ ONLY; SET LOCAL enable_bitmapscan = off; SET LOCAL enable_seqscan = off;
             SELECT created_at::text AS created_at, id FROM (
               SELECT created_at, id FROM check_exports WHERE ${where}${from}
                ORDER BY created_at, id OFFSET ${chunkRows - 1} LIMIT 1) bound`,
    }) as unknown as { rows: Keyset[] }[];
    const bound = result.at(-1)?.rows[0] ?? null;
    const to = bound ? ` AND ${keysetSql("<=", bound)}` : "";
    const copy = client.query(copyTo(
      `COPY (SELECT ${SELECT_LIST} FROM check_exports WHERE ${where}${from}${to} ORDER BY created_at, id)
         TO STDOUT WITH (FORMAT csv${after ? "" : ", HEADER"})`,
    ));
    const out = new CrlfBlocks();
    for await (const piece of copy) out.push(piece as Buffer);
    await client.query({ text: "COMMIT" });
    borrowed.release();
    return { blocks: out.end(), next: bound };
  } catch (e) {
    // After a failed statement (the COPY, the bound, the transaction's) the connection's state is
    // not worth trusting, its transaction may be open: it is closed, not reused.
    borrowed.release(e instanceof Error ? e : new Error(String(e)));
    throw e;
  }
}

const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;

/**
 * COPY's CSV text with each record ending in CRLF instead of LF, copied into blocks of
 * BLOCK_BYTES. An LF is a record's end only outside quotes: every `"` of well-formed CSV opens or
 * closes a quoted cell (a doubled `""` does both), so counting them tells which side an LF is
 * on. UTF-8 has no multi-byte sequence containing either byte, so bytes can be scanned as they
 * come, split anywhere.
 */
export class CrlfBlocks {
  private readonly done: Buffer[] = [];
  private block = Buffer.allocUnsafe(BLOCK_BYTES);
  private used = 0;
  /** Inside a quoted cell at the end of the last piece. */
  private quoted = false;

  push(piece: Buffer): void {
    let from = 0;
    let quote = piece.indexOf(QUOTE);
    for (let lf = piece.indexOf(LF); lf !== -1; lf = piece.indexOf(LF, lf + 1)) {
      for (; quote !== -1 && quote < lf; quote = piece.indexOf(QUOTE, quote + 1)) this.quoted = !this.quoted;
      if (this.quoted) continue;
      this.copy(piece, from, lf);
      this.byte(CR);
      this.byte(LF);
      from = lf + 1;
    }
    for (; quote !== -1; quote = piece.indexOf(QUOTE, quote + 1)) this.quoted = !this.quoted;
    this.copy(piece, from, piece.length);
  }

  /** The blocks, the last one cut to its length. */
  end(): Buffer[] {
    if (this.used > 0) this.done.push(this.block.subarray(0, this.used));
    this.used = 0;
    return this.done;
  }

  private copy(src: Buffer, start: number, end: number): void {
    while (start < end) {
      const n = Math.min(end - start, BLOCK_BYTES - this.used);
      src.copy(this.block, this.used, start, start + n);
      this.used += n;
      start += n;
      if (this.used === BLOCK_BYTES) this.flush();
    }
  }

  private byte(b: number): void {
    this.block[this.used++] = b;
    if (this.used === BLOCK_BYTES) this.flush();
  }

  private flush(): void {
    this.done.push(this.block);
    this.block = Buffer.allocUnsafe(BLOCK_BYTES);
    this.used = 0;
  }
}
