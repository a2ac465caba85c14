import { EntitySchema } from "typeorm";
import type { EntityType, ModerationStatus, ReportFeedback } from "@svc/core";
import { float, idText, jsonb, text, timestamptz } from "./columns.js";

export interface ReportRow {
  id: string;
  reporter_id: string;
  entity_id: string;
  entity_type: EntityType;
  entity_value: string;
  category: string;
  description: string | null;
  evidence_urls: string[];
  related_entities: string[];
  check_id: string | null;
  feedback: ReportFeedback | null;
  moderation_status: ModerationStatus;
  moderated_at: Date | null;
  moderated_by: string | null;
  moderation_reason: string | null;
  created_at: Date;
  updated_at: Date;
}

export const ReportEntity = new EntitySchema<ReportRow>({
  name: "Report",
  tableName: "reports",
  columns: {
    id: idText({ primary: true }),
    reporter_id: idText(),
    entity_id: idText(),
    entity_type: text(),
    entity_value: text(),
    category: text(),
    description: text({ nullable: true }),
    evidence_urls: jsonb(),
    related_entities: jsonb(),
    check_id: text({ nullable: true }),
    feedback: text({ nullable: true }),
    moderation_status: text(),
    moderated_at: timestamptz({ nullable: true }),
    moderated_by: idText({ nullable: true }),
    moderation_reason: text({ nullable: true }),
    created_at: timestamptz(),
    updated_at: timestamptz(),
  },
  // One report per reporter per entity; also the index the aggregation reads by entity.
  uniques: [{ name: "reports_entity_reporter_key", columns: ["entity_id", "reporter_id"] }],
  indices: [
    // The moderation queue, by status or not, in arrival order.
    { name: "reports_queue_idx", columns: ["moderation_status", "created_at", "id"], synchronize: false },
    { name: "reports_created_idx", columns: ["created_at", "id"], synchronize: false },
    // A reporter's moderated reports (earned trust).
    { name: "reports_reporter_idx", columns: ["reporter_id", "moderation_status"], synchronize: false },
  ],
  checks: [{ name: "reports_moderation_status_check", expression: `"moderation_status" IN ('unverified', 'confirmed', 'rejected')` }],
});

export interface ReporterRow {
  id: string;
  trust: number;
}

export const ReporterEntity = new EntitySchema<ReporterRow>({
  name: "Reporter",
  tableName: "reporters",
  columns: {
    id: idText({ primary: true }),
    trust: float(),
  },
  checks: [{ name: "reporters_trust_check", expression: `"trust" >= 0 AND "trust" <= 1` }],
});
