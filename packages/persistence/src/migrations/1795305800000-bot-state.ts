import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * The chat bots' durable state (ports of @svc/bot-kernel), keyed by platform and chat id:
 * per-chat settings, counters, the members each bot has seen (ids, names and usernames only:
 * never what anyone wrote), the in-app payment ledger and support tickets. Message text has no
 * column anywhere. Runs unchanged on PostgreSQL and PGlite.
 */
export class BotState1795305800000 implements MigrationInterface {
  readonly name = "BotState1795305800000";

  async up(q: QueryRunner): Promise<void> {
    for (const sql of UP) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [...TABLES].reverse()) await q.query(`DROP TABLE IF EXISTS "${table}"`);
  }
}

const TABLES = ["bot_chat_settings", "bot_chat_stats", "bot_members", "bot_payments", "bot_support_tickets"] as const;

const UP = [
  // Scalars are columns (the timers and plan queries read them); nested parts and lists are jsonb.
  `CREATE TABLE "bot_chat_settings" (
    "platform" text COLLATE "C" NOT NULL,
    "chat_id" text COLLATE "C" NOT NULL,
    "monitoring" boolean NOT NULL,
    "policy" text NOT NULL,
    "alerts" jsonb NOT NULL,
    "anti_raid" jsonb NOT NULL,
    "lockdown_until" timestamp with time zone,
    "welcome" jsonb NOT NULL,
    "blocklist" jsonb NOT NULL,
    "allowlist" jsonb NOT NULL,
    "log_channel" text,
    "plan_tier" text NOT NULL,
    "plan_source" text NOT NULL,
    "plan_key_hash" text COLLATE "C",
    "plan_bound_by" text,
    "plan_until" timestamp with time zone,
    "learn" jsonb,
    -- learn->>'until', as a column so that due() is an index range scan.
    "learn_until" timestamp with time zone,
    "updated_at" timestamp with time zone NOT NULL,
    CONSTRAINT "bot_chat_settings_pkey" PRIMARY KEY ("platform", "chat_id"),
    CONSTRAINT "bot_chat_settings_policy_check" CHECK ("policy" IN ('notify', 'delete', 'ban')),
    CONSTRAINT "bot_chat_settings_plan_tier_check" CHECK ("plan_tier" IN ('free', 'starter', 'pro')),
    CONSTRAINT "bot_chat_settings_plan_source_check" CHECK ("plan_source" IN ('none', 'api_key', 'stars'))
  )`,
  `CREATE INDEX "bot_chat_settings_lockdown_idx" ON "bot_chat_settings" ("platform", "lockdown_until") WHERE "lockdown_until" IS NOT NULL`,
  `CREATE INDEX "bot_chat_settings_learn_idx" ON "bot_chat_settings" ("platform", "learn_until") WHERE "learn_until" IS NOT NULL`,
  // Chats bound to an API key: for unbinding them when the key is revoked.
  `CREATE INDEX "bot_chat_settings_plan_key_idx" ON "bot_chat_settings" ("plan_key_hash") WHERE "plan_key_hash" IS NOT NULL`,

  // One row per counter: an increment is one upsert, and a new counter needs no migration.
  `CREATE TABLE "bot_chat_stats" (
    "platform" text COLLATE "C" NOT NULL,
    "chat_id" text COLLATE "C" NOT NULL,
    "counter" text COLLATE "C" NOT NULL,
    "value" bigint NOT NULL,
    CONSTRAINT "bot_chat_stats_pkey" PRIMARY KEY ("platform", "chat_id", "counter")
  )`,

  `CREATE TABLE "bot_members" (
    "platform" text COLLATE "C" NOT NULL,
    "chat_id" text COLLATE "C" NOT NULL,
    "user_id" text COLLATE "C" NOT NULL,
    "name" text NOT NULL,
    "username" text,
    "is_bot" boolean NOT NULL,
    "last_seen" timestamp with time zone NOT NULL,
    CONSTRAINT "bot_members_pkey" PRIMARY KEY ("platform", "chat_id", "user_id")
  )`,
  // Least recently seen first: the bound per chat evicts from this end.
  `CREATE INDEX "bot_members_seen_idx" ON "bot_members" ("platform", "chat_id", "last_seen")`,

  // Keyed by the platform's charge id: a redelivered payment update inserts nothing.
  `CREATE TABLE "bot_payments" (
    "charge_id" text COLLATE "C" NOT NULL,
    "platform" text COLLATE "C" NOT NULL,
    "user_id" text COLLATE "C" NOT NULL,
    "chat_id" text COLLATE "C" NOT NULL,
    "plan" text NOT NULL,
    "amount" integer NOT NULL,
    "currency" text NOT NULL,
    "paid_at" timestamp with time zone NOT NULL,
    "refunded_at" timestamp with time zone,
    CONSTRAINT "bot_payments_pkey" PRIMARY KEY ("charge_id"),
    CONSTRAINT "bot_payments_plan_check" CHECK ("plan" IN ('starter', 'pro'))
  )`,
  `CREATE INDEX "bot_payments_user_idx" ON "bot_payments" ("platform", "user_id", "paid_at")`,

  // "text" is what the user chose to send to support (/support, /paysupport), not chat content.
  `CREATE TABLE "bot_support_tickets" (
    "id" text COLLATE "C" NOT NULL,
    "platform" text COLLATE "C" NOT NULL,
    "chat_id" text COLLATE "C" NOT NULL,
    "user_id" text COLLATE "C" NOT NULL,
    "topic" text NOT NULL,
    "text" text NOT NULL,
    "opened_at" timestamp with time zone NOT NULL,
    CONSTRAINT "bot_support_tickets_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "bot_support_tickets_topic_check" CHECK ("topic" IN ('general', 'payments'))
  )`,
  `CREATE INDEX "bot_support_tickets_opened_idx" ON "bot_support_tickets" ("opened_at")`,
];
