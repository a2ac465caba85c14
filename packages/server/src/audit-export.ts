import type { AuditExportRow, CheckFilters, CheckRepository } from "@svc/core";
import { stringify as stringifySync } from "csv-stringify/sync";

const EXPORT_BLOCK_ROWS = 1_000;
export const EXPORT_COLUMNS = ["id", "created_at", "entity_type", "entity_value", "risk_score", "risk_level", "confidence", "recommended_action", "signals", "ruleset", "channel", "key_id", "prev_hash", "record_hash"];

/**
 * The account's CSV export, in pieces: made by the store when it can (the lines PostgreSQL keeps,
 * decision 0112), else formatted here from its rows (embedded PGlite). Both give the same bytes.
 */
export function auditExportCsv(checks: CheckRepository, accountId: string, filters: CheckFilters): AsyncIterable<Uint8Array> {
  return checks.exportCsv?.(accountId, filters) ?? csvOfRows(checks.exportSummaries(accountId, { batchSize: 2_000, ...filters }));
}

/**
 * csv-stringify's options for the export. `quote_record_delimiter`: a cell with a lone CR or LF
 * is quoted too, not only one with CRLF (csv-stringify quotes only the record delimiter it was
 * given, and a reader would take a bare LF for the end of a record).
 */
export const CSV_OPTIONS = (header: boolean) => ({ header, columns: EXPORT_COLUMNS, escape_formulas: true, record_delimiter: "\r\n", quote_record_delimiter: true });

/**
 * RFC 4180 CSV of `rows`, header first, CRLF line ends, formula-safe cells (csv-stringify's
 * `escape_formulas`). Text is made a block of rows at a time (one csv-stringify call per block)
 * and handed on as one piece: memory stays flat however many rows there are, and no stream
 * machinery runs per row.
 */
export async function* csvOfRows(rows: AsyncIterable<AuditExportRow>): AsyncGenerator<Uint8Array> {
  const encoder = new TextEncoder();
  let block: unknown[][] = [];
  let header = true;
  const text = (): Uint8Array => {
    const out = stringifySync(block, CSV_OPTIONS(header));
    header = false;
    block = [];
    return encoder.encode(out);
  };
  for await (const r of rows) {
    block.push([r.id, r.created_at, r.entity_type, r.entity_value, r.risk_score, r.risk_level, r.confidence, r.recommended_action, r.signals, r.ruleset, r.channel, r.key_id ?? "", r.prev_hash ?? "", r.record_hash]);
    if (block.length >= EXPORT_BLOCK_ROWS) yield text();
  }
  if (block.length > 0 || header) yield text();
}
