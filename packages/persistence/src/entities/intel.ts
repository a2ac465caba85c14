import { EntitySchema } from "typeorm";
import type { EntityType, IntelList } from "@svc/core";
import { idText, integer, jsonb, text, timestamptz } from "./columns.js";

export interface IntelRow {
  type: EntityType;
  value: string;
  list: IntelList;
  source: string;
  label: string;
  added_at: Date | null;
  updated_at: Date;
  /** Version of the data set the entry first came in (feeds); null for lists imported by hand. */
  version: string | null;
}

export const IntelEntity = new EntitySchema<IntelRow>({
  name: "IntelRecord",
  tableName: "intel_records",
  columns: {
    // The primary key (type, value, list, source) is also the lookup index by (type, value).
    type: idText({ primary: true }),
    value: idText({ primary: true }),
    list: idText({ primary: true }),
    source: idText({ primary: true }),
    label: text(),
    added_at: timestamptz({ nullable: true }),
    updated_at: timestamptz(),
    version: text({ nullable: true }),
  },
  // A feed's entries are replaced by source.
  indices: [{ name: "intel_records_source_idx", columns: ["source"] }],
  checks: [{ name: "intel_records_list_check", expression: `"list" IN ('allow', 'block')` }],
});

/** State of a configured live feed (docs/feeds.md). */
export interface IntelFeedRow {
  name: string;
  url: string;
  format: string;
  etag: string | null;
  last_modified: string | null;
  version: string | null;
  content_sha256: string | null;
  entries: number;
  synced_at: Date | null;
  checked_at: Date | null;
  last_error: string | null;
  last_result: Record<string, unknown> | null;
}

export const IntelFeedEntity = new EntitySchema<IntelFeedRow>({
  name: "IntelFeed",
  tableName: "intel_feeds",
  columns: {
    name: idText({ primary: true }),
    url: text(),
    format: text(),
    etag: text({ nullable: true }),
    last_modified: text({ nullable: true }),
    version: text({ nullable: true }),
    content_sha256: text({ nullable: true }),
    entries: integer(),
    synced_at: timestamptz({ nullable: true }),
    checked_at: timestamptz({ nullable: true }),
    last_error: text({ nullable: true }),
    last_result: jsonb({ nullable: true }),
  },
});
