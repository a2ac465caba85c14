import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * `checks.recommended_action` and `checks.signal_codes` (the codes of the verdict's scoring
 * signals, `;`-separated, in verdict order): written at insert from the verdict, so the CSV
 * export reads plain columns and never detoasts the verdict's JSON. Rows stored before are
 * filled from their verdict here. NOT NULL without a default: a process of the previous version
 * cannot write records any more (upgrade API replicas and workers together, as for 0021).
 */
export class CheckExportColumns1795320000000 implements MigrationInterface {
  readonly name = "CheckExportColumns1795320000000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "checks" ADD COLUMN "recommended_action" text, ADD COLUMN "signal_codes" text`);
    await q.query(`UPDATE "checks" SET
      "recommended_action" = coalesce("verdict"->>'recommended_action', ''),
      "signal_codes" = coalesce((SELECT string_agg(s.value->>'code', ';' ORDER BY s.ord)
                                   FROM jsonb_array_elements("verdict"->'signals') WITH ORDINALITY AS s(value, ord)
                                  WHERE (s.value->>'points')::float8 > 0), '')`);
    await q.query(`ALTER TABLE "checks" ALTER COLUMN "recommended_action" SET NOT NULL, ALTER COLUMN "signal_codes" SET NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "checks" DROP COLUMN "signal_codes", DROP COLUMN "recommended_action"`);
  }
}
