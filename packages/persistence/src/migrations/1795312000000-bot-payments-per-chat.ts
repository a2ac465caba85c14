import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * A chat's paid plan is worked out from its own purchases (each one an entitlement of its own),
 * so a refund takes back only the refunded purchase's time: payments are read per chat.
 */
export class BotPaymentsPerChat1795312000000 implements MigrationInterface {
  readonly name = "BotPaymentsPerChat1795312000000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX "bot_payments_chat_idx" ON "bot_payments" ("platform", "chat_id", "paid_at")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "bot_payments_chat_idx"`);
  }
}
