import type { EntityType } from "../entities/types.js";
import type { ReportEvidenceSource } from "./evidence.js";

export type ReportFeedback = "false_positive" | "false_negative";
export type ModerationStatus = "unverified" | "confirmed" | "rejected";

export interface NewReport {
  /** Assigned by the store (`rep_…`) when absent. */
  readonly id?: string;
  /** Who reports: an account, an API key or a chat user, as a stable id. One report per reporter per entity counts. */
  readonly reporter_id: string;
  readonly entity: { readonly type: EntityType; readonly value: string; readonly id: string };
  readonly category: string;
  readonly description?: string | null;
  readonly evidence_urls?: readonly string[];
  /** Entity ids the reporter says are linked to this one. */
  readonly related_entities?: readonly string[];
  readonly check_id?: string | null;
  /** Verdict feedback: the report disputes (false_positive) or confirms (false_negative) a verdict. */
  readonly feedback?: ReportFeedback | null;
}

export interface ReportRecord {
  readonly id: string;
  readonly reporter_id: string;
  readonly entity: { readonly type: EntityType; readonly value: string; readonly id: string };
  readonly category: string;
  readonly description: string | null;
  readonly evidence_urls: readonly string[];
  readonly related_entities: readonly string[];
  readonly check_id: string | null;
  readonly feedback: ReportFeedback | null;
  readonly moderation_status: ModerationStatus;
  /** The last moderation decision: when, by whom (an operator account id) and why; null until moderated. */
  readonly moderated_at: string | null;
  readonly moderated_by: string | null;
  readonly moderation_reason: string | null;
  readonly created_at: string;
  /** When the reporter last filed it; report age (for decay) counts from here. */
  readonly updated_at: string;
}

export interface FiledReport {
  readonly report: ReportRecord;
  readonly created: boolean;
  /** The report this one replaced (same reporter, same entity): its status and related entities. */
  readonly previous: { readonly moderation_status: ModerationStatus; readonly related_entities: readonly string[] } | null;
}

/** An operator's decision on a report. */
export interface ModerationDecision {
  readonly status: ModerationStatus;
  /** Who decided (an operator account id). */
  readonly by: string;
  /** Why; required by the API for a rejection. */
  readonly reason: string | null;
  readonly at: Date;
}

export interface ReportListQuery {
  readonly status?: ModerationStatus;
  readonly entity_id?: string;
  /** 1..100 (clamped); default 50. */
  readonly limit?: number;
  readonly cursor?: string | null;
}

export interface ReportPage {
  /** Oldest first (created_at, then id): the moderation queue in the order reports came in. */
  readonly items: readonly ReportRecord[];
  readonly next_cursor: string | null;
}

/**
 * Community reports. `forEntity` aggregates the reports that count: confirmed ones (weight
 * CONFIRMED_REPORT_TRUST), and unmoderated ones whose reporter has trust — set by the operator
 * (`setReporterTrust`) or earned from the reporter's confirmed and rejected reports
 * (`earnedReporterTrust`); a fresh reporter's unmoderated report counts for nothing. Every
 * reporter counts once per entity; a report's weight halves every 30 days of age; rejected
 * reports never count.
 */
export interface ReportRepository extends ReportEvidenceSource {
  /**
   * Files a report; the same reporter reporting the same entity again replaces the earlier report
   * (`created: false`), which goes back to `unverified`; `previous` is what the replaced one was.
   */
  file(report: NewReport, now: Date): Promise<FiledReport>;
  get(reportId: string): Promise<ReportRecord | null>;
  /** Sets how much the operator trusts a reporter (0..1), in place of the trust the reporter's record earns. */
  setReporterTrust(reporterId: string, trust: number): Promise<void>;
  /**
   * Records a decision; null when the report does not exist. The same decision again (same status
   * and reason) changes nothing, so it keeps its first time and author.
   */
  moderate(reportId: string, decision: ModerationDecision): Promise<{ readonly report: ReportRecord; readonly previous_status: ModerationStatus } | null>;
  /** The moderation queue. Throws `InvalidCursorError` for a cursor it did not issue. */
  list(query: ReportListQuery): Promise<ReportPage>;
  /** Entity ids named as related by the confirmed reports about this entity (deduplicated, sorted). */
  confirmedRelated(entityId: string): Promise<readonly string[]>;
}
