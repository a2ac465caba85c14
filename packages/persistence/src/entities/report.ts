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
    created_at: timestamptz(),
    updated_at: timestamptz(),
  },
  // One report per reporter per entity; also the index the aggregation reads by entity.
  uniques: [{ name: "reports_entity_reporter_key", columns: ["entity_id", "reporter_id"] }],
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
