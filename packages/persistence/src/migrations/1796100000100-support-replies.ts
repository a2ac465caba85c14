import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Support tickets an operator answers (docs/decisions/0055): a ticket is `open` until its first
 * reply, then `answered`. `bot_support_replies` is also the bots' outbox: the bot of the
 * ticket's platform claims an undelivered reply for a short lease (`claimed_until`), sends it to
 * the chat the ticket was opened in, and marks it `delivered_at`; after repeated failures it is
 * marked `failed_at` with the last error, for the operator to see. The reply's text is what the
 * operator wrote; nothing of any chat is stored.
 */
export class SupportReplies1796100000100 implements MigrationInterface {
  readonly name = "SupportReplies1796100000100";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "bot_support_tickets" ADD COLUMN "status" text NOT NULL DEFAULT 'open', ADD COLUMN "answered_at" timestamp with time zone`);
    await q.query(`ALTER TABLE "bot_support_tickets" ALTER COLUMN "status" DROP DEFAULT`);
    await q.query(`ALTER TABLE "bot_support_tickets" ADD CONSTRAINT "bot_support_tickets_status_check" CHECK ("status" IN ('open', 'answered'))`);
    // The operator's list: by status, oldest first, keyset-paginated on (opened_at, id).
    await q.query(`CREATE INDEX "bot_support_tickets_status_idx" ON "bot_support_tickets" ("status", "opened_at", "id")`);
    await q.query(`CREATE TABLE "bot_support_replies" (
      "id" text COLLATE "C" NOT NULL,
      "ticket_id" text COLLATE "C" NOT NULL,
      "platform" text COLLATE "C" NOT NULL,
      "chat_id" text COLLATE "C" NOT NULL,
      "text" text NOT NULL,
      "operator_id" text COLLATE "C" NOT NULL,
      "created_at" timestamp with time zone NOT NULL,
      "claimed_until" timestamp with time zone,
      "attempts" integer NOT NULL,
      "delivered_at" timestamp with time zone,
      "failed_at" timestamp with time zone,
      "last_error" text,
      CONSTRAINT "bot_support_replies_pkey" PRIMARY KEY ("id")
    )`);
    await q.query(`CREATE INDEX "bot_support_replies_ticket_idx" ON "bot_support_replies" ("ticket_id", "created_at")`);
    // The outbox: what each platform's bot still has to deliver.
    await q.query(`CREATE INDEX "bot_support_replies_outbox_idx" ON "bot_support_replies" ("platform", "created_at") WHERE "delivered_at" IS NULL AND "failed_at" IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS "bot_support_replies"`);
    await q.query(`DROP INDEX IF EXISTS "bot_support_tickets_status_idx"`);
    await q.query(`ALTER TABLE "bot_support_tickets" DROP CONSTRAINT IF EXISTS "bot_support_tickets_status_check"`);
    await q.query(`ALTER TABLE "bot_support_tickets" DROP COLUMN "answered_at", DROP COLUMN "status"`);
  }
}
