import type { AuditRecord, Channel, NewAuditRecord } from "../audit/audit-record.js";
import type { ChainVerification } from "../audit/record-hash.js";
import type { Confidence, RiskLevel } from "../detection/types.js";
import type { EntityType } from "../entities/types.js";

/** Filters shared by history and export. */
export interface CheckFilters {
  readonly type?: EntityType;
  readonly risk_level?: RiskLevel;
  /** Inclusive lower bound on `created_at`. */
  readonly since?: Date;
  /** Exclusive upper bound on `created_at`. */
  readonly until?: Date;
}

export interface HistoryQuery extends CheckFilters {
  /** 1..100 (larger values are clamped); default 50. */
  readonly limit?: number;
  /** `next_cursor` of the previous page. */
  readonly cursor?: string | null;
}

/** One line of an account's history: enough to list it; the full record is `get`. */
export interface HistoryItem {
  readonly id: string;
  readonly entity: { readonly type: EntityType; readonly value: string; readonly id: string };
  readonly risk_score: number;
  readonly risk_level: RiskLevel;
  readonly confidence: Confidence;
  readonly channel: Channel;
  readonly evaluated_at: string;
  readonly created_at: string;
}

export interface HistoryPage {
  /** Newest first (by `created_at`, then `id`). */
  readonly items: readonly HistoryItem[];
  /** Null on the last page. */
  readonly next_cursor: string | null;
}

/** One line of the CSV audit export. */
export interface AuditExportRow {
  readonly id: string;
  readonly created_at: string;
  readonly entity_type: string;
  readonly entity_value: string;
  readonly risk_score: number;
  readonly risk_level: string;
  readonly confidence: string;
  readonly recommended_action: string;
  /** Codes of the signals that added points, in verdict order, joined by `;`. */
  readonly signals: string;
  readonly ruleset: string;
  readonly channel: string;
  readonly key_id: string | null;
  readonly prev_hash: string | null;
  readonly record_hash: string;
}

export interface VerifyOptions {
  readonly since?: Date;
  readonly until?: Date;
}

export interface ExportOptions extends CheckFilters {
  /** Rows read per round trip; memory stays bounded by it. Default 500. */
  readonly batchSize?: number;
}

/**
 * The audit trail of checks. Every account's records form one hash chain, in the order the
 * store accepted them, whatever the concurrency of the callers.
 */
export interface CheckRepository {
  /**
   * Stores a record and chains it to the account's previous one (`prev_hash`, `record_hash`),
   * atomically per account. Rejects a duplicate id. Returns the record as stored.
   */
  save(record: NewAuditRecord): Promise<AuditRecord>;
  /**
   * Stores several records of ONE account in one transaction, chained in the given order
   * (group commit: one chain lock and one commit for many checks). All or nothing.
   */
  saveMany(records: readonly NewAuditRecord[]): Promise<AuditRecord[]>;
  /**
   * The account's records saved with this `idempotency_key` at or after `since`, oldest first
   * (what a request that died after claiming the key at `since` had stored).
   */
  byIdempotencyKey(accountId: string, key: string, since: Date): Promise<AuditRecord[]>;
  /** The record, or null when it does not exist or belongs to another account. */
  get(accountId: string, checkId: string): Promise<AuditRecord | null>;
  /** Keyset-paginated, newest first. Throws `InvalidCursorError` for a cursor it did not issue. */
  history(accountId: string, query?: HistoryQuery): Promise<HistoryPage>;
  /** Every matching record, oldest first, read in batches by keyset (constant memory). */
  exportRows(accountId: string, options?: ExportOptions): AsyncIterable<AuditRecord>;
  /**
   * `exportRows` reduced to the columns of the CSV export (`auditExportRowOf` of each record),
   * so a store can read them without the full records.
   */
  exportSummaries(accountId: string, options?: ExportOptions): AsyncIterable<AuditExportRow>;
  /**
   * The CSV export itself, when the store can make it (PostgreSQL's stored lines): byte for byte what the
   * API makes of `exportSummaries` (header, columns, quoting, formula-safe cells, CRLF), in pieces
   * of bounded size. Absent, or null for this store: the caller formats `exportSummaries`.
   */
  exportCsv?(accountId: string, options?: CheckFilters): AsyncIterable<Uint8Array> | null;
  /**
   * Re-computes the keyed hashes of the account's chain in order, in blocks (constant memory);
   * detects edited (record or listed columns), removed, inserted and reordered records, and
   * records removed from the end. With `since`/`until`, only the stretch of the chain from the
   * first record created at or after `since` to the last one created before `until`.
   */
  verifyChain(accountId: string, options?: VerifyOptions): Promise<ChainVerification>;
}
