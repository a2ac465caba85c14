import { EntitySchema } from "typeorm";
import { idText, integer, jsonb, text, timestamptz } from "./columns.js";

export interface IdempotencyRow {
  account_id: string;
  key: string;
  request_hash: string;
  /** Null while the request runs. */
  status: number | null;
  body: unknown;
  created_at: Date;
  expires_at: Date;
  /** The lease of the request running it (null once complete). */
  holder: string | null;
  /** Until then the holder is presumed alive; it renews while it runs. */
  lease_expires_at: Date | null;
}

export const IdempotencyEntity = new EntitySchema<IdempotencyRow>({
  name: "IdempotencyKey",
  tableName: "idempotency_keys",
  columns: {
    account_id: idText({ primary: true }),
    key: idText({ primary: true }),
    request_hash: text(),
    status: integer({ nullable: true }),
    body: jsonb({ nullable: true }),
    created_at: timestamptz(),
    expires_at: timestamptz(),
    holder: text({ nullable: true }),
    lease_expires_at: timestamptz({ nullable: true }),
  },
  indices: [{ name: "idempotency_keys_expires_idx", columns: ["expires_at"], synchronize: false }],
});
