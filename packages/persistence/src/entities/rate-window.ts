import { EntitySchema } from "typeorm";
import { idText } from "./columns.js";

/** One key's sliding rate-limit window: the units taken per one-second slot still in the window. */
export interface RateWindowRow {
  key: string;
  /** Slot numbers (Unix seconds), ascending; `counts[i]` units were taken in `slots[i]`. */
  slots: string[];
  counts: number[];
}

export const RateWindowEntity = new EntitySchema<RateWindowRow>({
  name: "RateWindow",
  tableName: "rate_windows",
  columns: {
    key: idText({ primary: true }),
    slots: { type: "bigint", array: true },
    counts: { type: "integer", array: true },
  },
});
