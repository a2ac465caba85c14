import { EntitySchema } from "typeorm";
import type { EntityType, IntelList } from "@svc/core";
import { idText, text, timestamptz } from "./columns.js";

export interface IntelRow {
  type: EntityType;
  value: string;
  list: IntelList;
  source: string;
  label: string;
  added_at: Date | null;
  updated_at: Date;
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
  },
  checks: [{ name: "intel_records_list_check", expression: `"list" IN ('allow', 'block')` }],
});
