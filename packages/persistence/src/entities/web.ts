import { EntitySchema } from "typeorm";
import { idText, text, timestamptz } from "./columns.js";

/** Dashboard sign-in (web-accounts port in @svc/core). Every row goes with its account (cascade). */
export interface WebUserRow {
  id: string;
  account_id: string;
  email: string;
  name: string | null;
  picture: string | null;
  password_hash: string | null;
  email_verified_at: Date | null;
  dashboard_key_id: string | null;
  created_at: Date;
}

export const WebUserEntity = new EntitySchema<WebUserRow>({
  name: "WebUser",
  tableName: "web_users",
  columns: {
    id: idText({ primary: true }),
    account_id: idText(),
    email: idText(),
    name: text({ nullable: true }),
    picture: text({ nullable: true }),
    password_hash: text({ nullable: true }),
    email_verified_at: timestamptz({ nullable: true }),
    dashboard_key_id: idText({ nullable: true }),
    created_at: timestamptz(),
  },
  uniques: [{ name: "web_users_email_key", columns: ["email"] }],
  foreignKeys: [{ name: "web_users_account_fk", target: "Account", columnNames: ["account_id"], referencedColumnNames: ["id"], onDelete: "CASCADE" }],
  indices: [{ name: "web_users_account_idx", columns: ["account_id"], synchronize: false }],
});

export interface WebIdentityRow {
  provider: string;
  subject: string;
  user_id: string;
  created_at: Date;
}

export const WebIdentityEntity = new EntitySchema<WebIdentityRow>({
  name: "WebIdentity",
  tableName: "web_identities",
  columns: {
    provider: idText({ primary: true }),
    subject: idText({ primary: true }),
    user_id: idText(),
    created_at: timestamptz(),
  },
  foreignKeys: [{ name: "web_identities_user_fk", target: "WebUser", columnNames: ["user_id"], referencedColumnNames: ["id"], onDelete: "CASCADE" }],
  indices: [{ name: "web_identities_user_idx", columns: ["user_id"], synchronize: false }],
});

export interface WebSessionRow {
  id_hash: string;
  user_id: string | null;
  created_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
  oauth_provider: string | null;
  oauth_state_hash: string | null;
  oauth_verifier: string | null;
}

export const WebSessionEntity = new EntitySchema<WebSessionRow>({
  name: "WebSession",
  tableName: "web_sessions",
  columns: {
    id_hash: idText({ primary: true }),
    user_id: idText({ nullable: true }),
    created_at: timestamptz(),
    expires_at: timestamptz(),
    revoked_at: timestamptz({ nullable: true }),
    oauth_provider: text({ nullable: true }),
    oauth_state_hash: idText({ nullable: true }),
    oauth_verifier: text({ nullable: true }),
  },
  foreignKeys: [{ name: "web_sessions_user_fk", target: "WebUser", columnNames: ["user_id"], referencedColumnNames: ["id"], onDelete: "CASCADE" }],
  indices: [{ name: "web_sessions_user_idx", columns: ["user_id"], synchronize: false }],
});

export interface WebTokenRow {
  token_hash: string;
  user_id: string;
  purpose: string;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

export const WebTokenEntity = new EntitySchema<WebTokenRow>({
  name: "WebToken",
  tableName: "web_tokens",
  columns: {
    token_hash: idText({ primary: true }),
    user_id: idText(),
    purpose: text(),
    created_at: timestamptz(),
    expires_at: timestamptz(),
    used_at: timestamptz({ nullable: true }),
  },
  foreignKeys: [{ name: "web_tokens_user_fk", target: "WebUser", columnNames: ["user_id"], referencedColumnNames: ["id"], onDelete: "CASCADE" }],
  indices: [{ name: "web_tokens_user_idx", columns: ["user_id"], synchronize: false }],
});

export const WEB_ENTITIES = [WebUserEntity, WebIdentityEntity, WebSessionEntity, WebTokenEntity];
