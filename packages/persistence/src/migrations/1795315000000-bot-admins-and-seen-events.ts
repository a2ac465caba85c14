import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * State for bots on platforms that have no admin list a bot can read and that redeliver events
 * (WhatsApp Cloud API):
 * - `bot_chat_admins`: a group's admins as the bot knows them. The first member to connect a
 *   group becomes its owner (at most one per group, enforced by a partial unique index, so two
 *   people connecting at once cannot both win); owners and admins add more admins by command.
 *   Ids and display names only.
 * - `bot_seen_events`: ids of inbound events already handled (WhatsApp message ids), so a
 *   redelivered event is processed once. Old rows are pruned; no content is kept.
 */
export class BotAdminsAndSeenEvents1795315000000 implements MigrationInterface {
  readonly name = "BotAdminsAndSeenEvents1795315000000";

  async up(q: QueryRunner): Promise<void> {
    for (const sql of UP) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS "bot_seen_events"`);
    await q.query(`DROP TABLE IF EXISTS "bot_chat_admins"`);
  }
}

const UP = [
  `CREATE TABLE "bot_chat_admins" (
    "platform" text COLLATE "C" NOT NULL,
    "chat_id" text COLLATE "C" NOT NULL,
    "user_id" text COLLATE "C" NOT NULL,
    "name" text NOT NULL,
    "role" text NOT NULL,
    "added_by" text COLLATE "C",
    "added_at" timestamp with time zone NOT NULL,
    CONSTRAINT "bot_chat_admins_pkey" PRIMARY KEY ("platform", "chat_id", "user_id"),
    CONSTRAINT "bot_chat_admins_role_check" CHECK ("role" IN ('owner', 'admin'))
  )`,
  `CREATE UNIQUE INDEX "bot_chat_admins_one_owner_idx" ON "bot_chat_admins" ("platform", "chat_id") WHERE "role" = 'owner'`,

  `CREATE TABLE "bot_seen_events" (
    "platform" text COLLATE "C" NOT NULL,
    "event_id" text COLLATE "C" NOT NULL,
    "seen_at" timestamp with time zone NOT NULL,
    CONSTRAINT "bot_seen_events_pkey" PRIMARY KEY ("platform", "event_id")
  )`,
  `CREATE INDEX "bot_seen_events_seen_idx" ON "bot_seen_events" ("seen_at")`,
];
