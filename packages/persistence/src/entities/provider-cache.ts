import { EntitySchema } from "typeorm";
import { idText, jsonb, timestamptz } from "./columns.js";

/** One cached answer of an outside reputation provider (an empty `findings` is a negative answer). */
export interface ProviderCacheRow {
  provider: string;
  entity_key: string;
  findings: unknown;
  fetched_at: Date;
  expires_at: Date;
}

export const ProviderCacheEntity = new EntitySchema<ProviderCacheRow>({
  name: "ProviderCache",
  tableName: "provider_cache",
  columns: {
    provider: idText({ primary: true }),
    entity_key: idText({ primary: true }),
    findings: jsonb(),
    fetched_at: timestamptz(),
    expires_at: timestamptz(),
  },
  indices: [{ name: "provider_cache_expires_idx", columns: ["expires_at"] }],
});
