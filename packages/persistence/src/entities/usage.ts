import { EntitySchema } from "typeorm";
import { idText, integer, timestamptz } from "./columns.js";

export interface UsageRow {
  key: string;
  window_kind: string;
  window_start: Date;
  count: number;
}

export const UsageEntity = new EntitySchema<UsageRow>({
  name: "UsageCounter",
  tableName: "usage_counters",
  columns: {
    key: idText({ primary: true }),
    window_kind: idText({ primary: true }),
    window_start: timestamptz({ primary: true }),
    count: integer(),
  },
  indices: [{ name: "usage_counters_window_idx", columns: ["window_kind", "window_start"], synchronize: false }],
});
