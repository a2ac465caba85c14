import type { MigrationInterface, QueryRunner } from "typeorm";

/** A chat's action policy per risk level (`/policy delete high`), over its base policy. */
export class BotPolicyPerLevel1795312000100 implements MigrationInterface {
  readonly name = "BotPolicyPerLevel1795312000100";

  async up(q: QueryRunner): Promise<void> {
    // Existing chats get none; every write sets it, so no default stays behind.
    await q.query(`ALTER TABLE "bot_chat_settings" ADD COLUMN "policy_levels" jsonb NOT NULL DEFAULT '{}'::jsonb`);
    await q.query(`ALTER TABLE "bot_chat_settings" ALTER COLUMN "policy_levels" DROP DEFAULT`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "bot_chat_settings" DROP COLUMN "policy_levels"`);
  }
}
