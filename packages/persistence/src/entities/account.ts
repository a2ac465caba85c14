import { EntitySchema } from "typeorm";
import type { AccountRole, Plan } from "@svc/server-ports";
import { idText, text, timestamptz } from "./columns.js";

export interface AccountRow {
  id: string;
  name: string;
  plan: Plan;
  role: AccountRole;
  created_at: Date;
}

export const AccountEntity = new EntitySchema<AccountRow>({
  name: "Account",
  tableName: "accounts",
  columns: {
    id: idText({ primary: true }),
    name: text(),
    plan: text(),
    role: text({ default: "customer" }),
    created_at: timestamptz(),
  },
  checks: [
    { name: "accounts_role_check", expression: `"role" IN ('customer', 'operator')` },
  ],
});

export interface ApiKeyRow {
  id: string;
  account_id: string;
  key_hash: string;
  prefix: string;
  name: string | null;
  plan: Plan | null;
  created_at: Date;
  revoked_at: Date | null;
}

export const ApiKeyEntity = new EntitySchema<ApiKeyRow>({
  name: "ApiKey",
  tableName: "api_keys",
  columns: {
    id: idText({ primary: true }),
    account_id: idText(),
    key_hash: idText(),
    prefix: text(),
    name: text({ nullable: true }),
    plan: text({ nullable: true }),
    created_at: timestamptz(),
    revoked_at: timestamptz({ nullable: true }),
  },
  uniques: [{ name: "api_keys_key_hash_key", columns: ["key_hash"] }],
  foreignKeys: [{ name: "api_keys_account_fk", target: "Account", columnNames: ["account_id"], referencedColumnNames: ["id"], onDelete: "CASCADE" }],
  indices: [{ name: "api_keys_account_idx", columns: ["account_id", "created_at"], synchronize: false }],
});
