import { EntitySchema, type EntitySchemaColumnOptions } from "typeorm";
import { idText, integer, jsonb, text, timestamptz } from "./columns.js";

const boolean = (): EntitySchemaColumnOptions => ({ type: "boolean" });

/** Mirrors migration 1795305800000 (the chat bots' state); see the repositories in `repositories/typeorm-bot-*.ts`. */
export interface BotChatSettingsRow {
  platform: string;
  chat_id: string;
  monitoring: boolean;
  policy: string;
  policy_levels: unknown;
  alerts: unknown;
  anti_raid: unknown;
  lockdown_until: Date | null;
  welcome: unknown;
  blocklist: string[];
  allowlist: unknown;
  log_channel: string | null;
  plan_tier: string;
  plan_source: string;
  plan_key_hash: string | null;
  plan_bound_by: string | null;
  plan_until: Date | null;
  learn: unknown;
  learn_until: Date | null;
  updated_at: Date;
  /** Set from a sequence by a trigger on every write (migration 1796100000000); int8, so `pg` returns a string. */
  version: string | number;
}

export const BotChatSettingsEntity = new EntitySchema<BotChatSettingsRow>({
  name: "BotChatSettings",
  tableName: "bot_chat_settings",
  columns: {
    platform: idText({ primary: true }),
    chat_id: idText({ primary: true }),
    monitoring: boolean(),
    policy: text(),
    policy_levels: jsonb(),
    alerts: jsonb(),
    anti_raid: jsonb(),
    lockdown_until: timestamptz({ nullable: true }),
    welcome: jsonb(),
    blocklist: jsonb(),
    allowlist: jsonb(),
    log_channel: text({ nullable: true }),
    plan_tier: text(),
    plan_source: text(),
    plan_key_hash: idText({ nullable: true }),
    plan_bound_by: text({ nullable: true }),
    plan_until: timestamptz({ nullable: true }),
    learn: jsonb({ nullable: true }),
    learn_until: timestamptz({ nullable: true }),
    updated_at: timestamptz(),
    version: { type: "bigint", default: 0 },
  },
  // Partial indexes, created by the migration only.
  indices: [
    { name: "bot_chat_settings_lockdown_idx", columns: ["platform", "lockdown_until"], synchronize: false },
    { name: "bot_chat_settings_learn_idx", columns: ["platform", "learn_until"], synchronize: false },
    { name: "bot_chat_settings_plan_key_idx", columns: ["plan_key_hash"], synchronize: false },
  ],
  checks: [
    { name: "bot_chat_settings_policy_check", expression: `"policy" IN ('notify', 'delete', 'ban')` },
    { name: "bot_chat_settings_plan_tier_check", expression: `"plan_tier" IN ('free', 'starter', 'pro')` },
    { name: "bot_chat_settings_plan_source_check", expression: `"plan_source" IN ('none', 'api_key', 'stars')` },
  ],
});

export interface BotChatStatRow {
  platform: string;
  chat_id: string;
  counter: string;
  /** int8: `pg` returns it as a string. */
  value: string | number;
}

export const BotChatStatEntity = new EntitySchema<BotChatStatRow>({
  name: "BotChatStat",
  tableName: "bot_chat_stats",
  columns: {
    platform: idText({ primary: true }),
    chat_id: idText({ primary: true }),
    counter: idText({ primary: true }),
    value: { type: "bigint" },
  },
});

export interface BotMemberRow {
  platform: string;
  chat_id: string;
  user_id: string;
  name: string;
  username: string | null;
  is_bot: boolean;
  last_seen: Date;
}

export const BotMemberEntity = new EntitySchema<BotMemberRow>({
  name: "BotMember",
  tableName: "bot_members",
  columns: {
    platform: idText({ primary: true }),
    chat_id: idText({ primary: true }),
    user_id: idText({ primary: true }),
    name: text(),
    username: text({ nullable: true }),
    is_bot: boolean(),
    last_seen: timestamptz(),
  },
  indices: [{ name: "bot_members_seen_idx", columns: ["platform", "chat_id", "last_seen"], synchronize: false }],
});

export interface BotPaymentRow {
  charge_id: string;
  platform: string;
  user_id: string;
  chat_id: string;
  plan: "starter" | "pro";
  amount: number;
  currency: string;
  paid_at: Date;
  refunded_at: Date | null;
}

export const BotPaymentEntity = new EntitySchema<BotPaymentRow>({
  name: "BotPayment",
  tableName: "bot_payments",
  columns: {
    charge_id: idText({ primary: true }),
    platform: idText(),
    user_id: idText(),
    chat_id: idText(),
    plan: text(),
    amount: integer(),
    currency: text(),
    paid_at: timestamptz(),
    refunded_at: timestamptz({ nullable: true }),
  },
  indices: [
    { name: "bot_payments_user_idx", columns: ["platform", "user_id", "paid_at"], synchronize: false },
    { name: "bot_payments_chat_idx", columns: ["platform", "chat_id", "paid_at"], synchronize: false },
  ],
  checks: [{ name: "bot_payments_plan_check", expression: `"plan" IN ('starter', 'pro')` }],
});

export interface BotSupportTicketRow {
  id: string;
  platform: string;
  chat_id: string;
  user_id: string;
  topic: "general" | "payments";
  text: string;
  opened_at: Date;
  /** Migration 1796100000100: open until the first operator reply. */
  status: "open" | "answered";
  answered_at: Date | null;
}

export const BotSupportTicketEntity = new EntitySchema<BotSupportTicketRow>({
  name: "BotSupportTicket",
  tableName: "bot_support_tickets",
  columns: {
    id: idText({ primary: true }),
    platform: idText(),
    chat_id: idText(),
    user_id: idText(),
    topic: text(),
    text: text(),
    opened_at: timestamptz(),
    status: text(),
    answered_at: timestamptz({ nullable: true }),
  },
  indices: [
    { name: "bot_support_tickets_opened_idx", columns: ["opened_at"], synchronize: false },
    { name: "bot_support_tickets_status_idx", columns: ["status", "opened_at", "id"], synchronize: false },
  ],
  checks: [
    { name: "bot_support_tickets_topic_check", expression: `"topic" IN ('general', 'payments')` },
    { name: "bot_support_tickets_status_check", expression: `"status" IN ('open', 'answered')` },
  ],
});

/** Mirrors migration 1796100000100: operator replies to support tickets, and the bots' outbox for them. */
export interface BotSupportReplyRow {
  id: string;
  ticket_id: string;
  platform: string;
  chat_id: string;
  text: string;
  operator_id: string;
  created_at: Date;
  claimed_until: Date | null;
  attempts: number;
  delivered_at: Date | null;
  failed_at: Date | null;
  last_error: string | null;
}

export const BotSupportReplyEntity = new EntitySchema<BotSupportReplyRow>({
  name: "BotSupportReply",
  tableName: "bot_support_replies",
  columns: {
    id: idText({ primary: true }),
    ticket_id: idText(),
    platform: idText(),
    chat_id: idText(),
    text: text(),
    operator_id: idText(),
    created_at: timestamptz(),
    claimed_until: timestamptz({ nullable: true }),
    attempts: integer(),
    delivered_at: timestamptz({ nullable: true }),
    failed_at: timestamptz({ nullable: true }),
    last_error: text({ nullable: true }),
  },
  indices: [
    { name: "bot_support_replies_ticket_idx", columns: ["ticket_id", "created_at"], synchronize: false },
    { name: "bot_support_replies_outbox_idx", columns: ["platform", "created_at"], synchronize: false },
  ],
});

/** Mirrors migration 1795315000000: a group's admins on platforms that have no admin list (WhatsApp). */
export interface BotChatAdminRow {
  platform: string;
  chat_id: string;
  user_id: string;
  name: string;
  role: "owner" | "admin";
  added_by: string | null;
  added_at: Date;
}

export const BotChatAdminEntity = new EntitySchema<BotChatAdminRow>({
  name: "BotChatAdmin",
  tableName: "bot_chat_admins",
  columns: {
    platform: idText({ primary: true }),
    chat_id: idText({ primary: true }),
    user_id: idText({ primary: true }),
    name: text(),
    role: text(),
    added_by: idText({ nullable: true }),
    added_at: timestamptz(),
  },
  // Partial unique index (one owner per chat), created by the migration only.
  indices: [{ name: "bot_chat_admins_one_owner_idx", columns: ["platform", "chat_id"], unique: true, synchronize: false }],
  checks: [{ name: "bot_chat_admins_role_check", expression: `"role" IN ('owner', 'admin')` }],
});

/** Mirrors migration 1795315000000: inbound event ids already handled (redeliveries are dropped). */
export interface BotSeenEventRow {
  platform: string;
  event_id: string;
  seen_at: Date;
}

export const BotSeenEventEntity = new EntitySchema<BotSeenEventRow>({
  name: "BotSeenEvent",
  tableName: "bot_seen_events",
  columns: {
    platform: idText({ primary: true }),
    event_id: idText({ primary: true }),
    seen_at: timestamptz(),
  },
  indices: [{ name: "bot_seen_events_seen_idx", columns: ["seen_at"], synchronize: false }],
});

export const BOT_ENTITIES = [BotChatSettingsEntity, BotChatStatEntity, BotMemberEntity, BotPaymentEntity, BotSupportTicketEntity, BotSupportReplyEntity, BotChatAdminEntity, BotSeenEventEntity];

/** Every table of the bots' state, for privacy scans. */
export const BOT_TABLES = ["bot_chat_settings", "bot_chat_stats", "bot_members", "bot_payments", "bot_support_tickets", "bot_support_replies", "bot_chat_admins", "bot_seen_events"] as const;
