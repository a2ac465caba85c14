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
  readonly created_at: string;
  /** When the reporter last filed it; report age (for decay) counts from here. */
  readonly updated_at: string;
}

/**
 * Community reports. `forEntity` aggregates them: every reporter counts once, weighted by the
 * reporter's trust (0..1) and halved every 30 days of age; rejected reports do not count.
 */
export interface ReportRepository extends ReportEvidenceSource {
  /** Files a report; the same reporter reporting the same entity again replaces the earlier report (`created: false`). */
  file(report: NewReport, now: Date): Promise<{ readonly report: ReportRecord; readonly created: boolean }>;
  get(reportId: string): Promise<ReportRecord | null>;
  /** Sets how much a reporter is trusted (0..1); reporters never set count with the store's default. */
  setReporterTrust(reporterId: string, trust: number): Promise<void>;
  /** False when the report does not exist. */
  moderate(reportId: string, status: ModerationStatus): Promise<boolean>;
}
