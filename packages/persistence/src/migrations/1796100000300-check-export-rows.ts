import type { MigrationInterface, QueryRunner } from "typeorm";

/** The columns of an export row, as `checks` names them (the audit export's, with the account for its key). */
const COLUMNS = [
  "account_id", "created_at", "id", "entity_type", "entity_value", "risk_score", "risk_level", "confidence",
  "recommended_action", "signal_codes", "ruleset", "channel", "actor_key_id", "prev_hash", "record_hash",
].join(", ");

/**
 * `check_exports`: the columns of the audit export for each check, in a narrow table of their
 * own keyed by (account, time, id), so an export reads ~200-byte rows in order instead of the
 * ~1.3 KB rows of `checks` (whose JSON record sits inline, compressed); decision 0112.
 *
 * The database keeps it: statement triggers copy the rows every INSERT into `checks` adds
 * (whichever statement writes them) and remove those a DELETE takes away. `checks` stays the
 * audit record; `svc audit verify` compares each record with its export row.
 */
export class CheckExportRows1796100000300 implements MigrationInterface {
  readonly name = "CheckExportRows1796100000300";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "check_exports" (
      "account_id" text NOT NULL, "created_at" timestamptz NOT NULL, "id" text NOT NULL,
      "entity_type" text NOT NULL, "entity_value" text NOT NULL, "risk_score" integer NOT NULL, "risk_level" text NOT NULL,
      "confidence" text NOT NULL, "recommended_action" text NOT NULL, "signal_codes" text NOT NULL, "ruleset" text NOT NULL,
      "channel" text NOT NULL, "actor_key_id" text, "prev_hash" text, "record_hash" text NOT NULL,
      CONSTRAINT "check_exports_pkey" PRIMARY KEY ("account_id", "created_at", "id"))`);
    await q.query(`INSERT INTO "check_exports" (${COLUMNS}) SELECT ${COLUMNS} FROM "checks"`);
    await q.query(`CREATE FUNCTION "checks_added_to_exports"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO check_exports (${COLUMNS}) SELECT ${COLUMNS} FROM added;
        RETURN NULL;
      END $$`);
    await q.query(`CREATE FUNCTION "checks_removed_from_exports"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM check_exports e USING removed r
         WHERE e.account_id = r.account_id AND e.created_at = r.created_at AND e.id = r.id;
        RETURN NULL;
      END $$`);
    await q.query(`CREATE TRIGGER "checks_added_to_exports" AFTER INSERT ON "checks"
      REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION "checks_added_to_exports"()`);
    await q.query(`CREATE TRIGGER "checks_removed_from_exports" AFTER DELETE ON "checks"
      REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION "checks_removed_from_exports"()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER "checks_removed_from_exports" ON "checks"`);
    await q.query(`DROP TRIGGER "checks_added_to_exports" ON "checks"`);
    await q.query(`DROP FUNCTION "checks_removed_from_exports"()`);
    await q.query(`DROP FUNCTION "checks_added_to_exports"()`);
    await q.query(`DROP TABLE "check_exports"`);
  }
}
