import type { MigrationInterface, QueryRunner } from "typeorm";

/** First characters csv-stringify's `escape_formulas` prefixes with `'` in a text cell. */
const FORMULA_STARTS = ["=", "+", "-", "@", "\t", "\r", "\uFF1D", "\uFF0B", "\uFF0D", "\uFF20"]
  .map((c) => (c === "\t" ? "E'\\t'" : c === "\r" ? "E'\\r'" : `'${c}'`)).join(", ");

/**
 * `check_exports`: each check's record of the audit export as CSV text, in a narrow table keyed by
 * (account, time, id), with the two columns the export filters on. An export reads ~350-byte
 * rows in order and joins their lines, where it read the ~1.3 KB rows of `checks` (their JSON
 * record inline, compressed) and formatted every cell on every export (decision 0112).
 *
 * - `export_cell(text)`: a text cell as the API's csv-stringify options write it: a leading `'`
 *   before = + - @ tab CR and their full-width forms (`escape_formulas`); quoted, its `"`
 *   doubled, when it holds `"`, `,`, CR or LF; empty for NULL and for an empty text;
 * - `check_export_of(checks)`: a check's export row, from its columns (inlined by the planner);
 * - statement triggers add the rows of every INSERT into `checks`, whichever statement writes
 *   them, and remove those a DELETE or TRUNCATE takes away. `svc audit verify` compares each
 *   record's export row with `check_export_of` of it.
 * - the key's text columns sort and compare as `checks`' do (`COLLATE "C"`): joins between the
 *   two use the key's index, and lines with equal times come in the same order as its rows.
 */
export class CheckExportRows1796100000300 implements MigrationInterface {
  readonly name = "CheckExportRows1796100000300";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "check_exports" (
      "account_id" text COLLATE "C" NOT NULL, "created_at" timestamptz NOT NULL, "id" text COLLATE "C" NOT NULL,
      "entity_type" text NOT NULL, "risk_level" text NOT NULL, "line" text NOT NULL,
      CONSTRAINT "check_exports_pkey" PRIMARY KEY ("account_id", "created_at", "id"))`);
    // Whether a cell is quoted does not depend on the formula guard's `'`.
    const guarded = `CASE WHEN left(v, 1) IN (${FORMULA_STARTS}) THEN '''' || v ELSE v END`;
    await q.query(`CREATE FUNCTION "export_cell"(v text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
      SELECT CASE WHEN v ~ '[",\\r\\n]' THEN '"' || replace(${guarded}, '"', '""') || '"' ELSE coalesce(${guarded}, '') END
    $$`);
    // One SELECT, no volatile parts: the planner inlines both functions into the statement that calls them.
    await q.query(`CREATE FUNCTION "check_export_of"(c "checks") RETURNS SETOF "check_exports" LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
      SELECT c.account_id, c.created_at, c.id, c.entity_type, c.risk_level,
             export_cell(c.id) || ',' || to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || ',' ||
             export_cell(c.entity_type) || ',' || export_cell(c.entity_value) || ',' || c.risk_score || ',' ||
             export_cell(c.risk_level) || ',' || export_cell(c.confidence) || ',' || export_cell(c.recommended_action) || ',' ||
             export_cell(c.signal_codes) || ',' || export_cell(c.ruleset) || ',' || export_cell(c.channel) || ',' ||
             export_cell(c.actor_key_id) || ',' || export_cell(c.prev_hash) || ',' || export_cell(c.record_hash)
    $$`);
    await q.query(`CREATE FUNCTION "checks_added_to_exports"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO check_exports SELECT e.* FROM added c, LATERAL check_export_of(c) e;
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
    await q.query(`CREATE FUNCTION "checks_truncated_exports"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        TRUNCATE check_exports;
        RETURN NULL;
      END $$`);
    await q.query(`CREATE TRIGGER "checks_truncated_exports" AFTER TRUNCATE ON "checks" FOR EACH STATEMENT EXECUTE FUNCTION "checks_truncated_exports"()`);
    // The rows already there, after the triggers: creating them waited for the writes in flight
    // and holds further ones back until this migration commits, so no check is missed (rolling
    // upgrades keep writing while it runs) and none is copied twice.
    await q.query(`INSERT INTO "check_exports" SELECT e.* FROM "checks" c, LATERAL check_export_of(c) e`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER "checks_truncated_exports" ON "checks"`);
    await q.query(`DROP TRIGGER "checks_removed_from_exports" ON "checks"`);
    await q.query(`DROP TRIGGER "checks_added_to_exports" ON "checks"`);
    await q.query(`DROP FUNCTION "checks_truncated_exports"()`);
    await q.query(`DROP FUNCTION "checks_removed_from_exports"()`);
    await q.query(`DROP FUNCTION "checks_added_to_exports"()`);
    await q.query(`DROP FUNCTION "check_export_of"("checks")`);
    await q.query(`DROP FUNCTION "export_cell"(text)`);
    await q.query(`DROP TABLE "check_exports"`);
  }
}
