import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * `bot_chat_settings.version`: set from one sequence by a trigger on every insert and update,
 * whoever writes the row (the settings store, the payment ledger's plan grant, billing, account
 * deletion), so a bot process that keeps a chat's settings between messages can ask "changed?"
 * in one indexed read (docs/decisions/0054). A sequence, not `version + 1`: a row deleted and
 * written again never repeats a version a process may still hold.
 */
export class BotSettingsVersion1796100000000 implements MigrationInterface {
  readonly name = "BotSettingsVersion1796100000000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SEQUENCE "bot_chat_settings_version_seq"`);
    await q.query(`ALTER TABLE "bot_chat_settings" ADD COLUMN "version" bigint NOT NULL DEFAULT 0`);
    await q.query(`UPDATE "bot_chat_settings" SET "version" = nextval('bot_chat_settings_version_seq')`);
    await q.query(`CREATE FUNCTION "bot_chat_settings_next_version"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW."version" := nextval('bot_chat_settings_version_seq');
        RETURN NEW;
      END
    $$`);
    await q.query(`CREATE TRIGGER "bot_chat_settings_version" BEFORE INSERT OR UPDATE ON "bot_chat_settings" FOR EACH ROW EXECUTE FUNCTION "bot_chat_settings_next_version"()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER IF EXISTS "bot_chat_settings_version" ON "bot_chat_settings"`);
    await q.query(`DROP FUNCTION IF EXISTS "bot_chat_settings_next_version"()`);
    await q.query(`ALTER TABLE "bot_chat_settings" DROP COLUMN "version"`);
    await q.query(`DROP SEQUENCE IF EXISTS "bot_chat_settings_version_seq"`);
  }
}
