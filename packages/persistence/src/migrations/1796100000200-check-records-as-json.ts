import type { MigrationInterface, QueryRunner } from "typeorm";

const RECORD_COLUMNS = ["request", "entity", "verdict", "source_outcomes", "data_versions", "signals"] as const;

/**
 * The audit record's JSON columns of `checks` are stored as the text that was sealed (`json`),
 * not re-parsed into `jsonb` on every insert, and compressed with lz4 where the server has it
 * (pglz otherwise): the insert of a check costs the database about half the CPU (decision 0093).
 * Nothing queries inside these columns on the hot path; `->` and `->>` work on `json` as on `jsonb`.
 * The type change rewrites the table: on a large audit trail, run it in a maintenance window.
 */
export class CheckRecordsAsJson1796100000200 implements MigrationInterface {
  readonly name = "CheckRecordsAsJson1796100000200";

  async up(q: QueryRunner): Promise<void> {
    const lz4 = await hasLz4(q);
    const changes = RECORD_COLUMNS.flatMap((c) => [`ALTER COLUMN "${c}" TYPE json USING "${c}"::json`, ...(lz4 ? [`ALTER COLUMN "${c}" SET COMPRESSION lz4`] : [])]);
    await q.query(`ALTER TABLE "checks" ${changes.join(", ")}`);
  }

  async down(q: QueryRunner): Promise<void> {
    const lz4 = await hasLz4(q);
    const changes = RECORD_COLUMNS.flatMap((c) => [`ALTER COLUMN "${c}" TYPE jsonb USING "${c}"::jsonb`, ...(lz4 ? [`ALTER COLUMN "${c}" SET COMPRESSION default`] : [])]);
    await q.query(`ALTER TABLE "checks" ${changes.join(", ")}`);
  }
}

/** Whether this server was built with lz4 (PostgreSQL 14 and later, `--with-lz4`; PGlite is not). */
async function hasLz4(q: QueryRunner): Promise<boolean> {
  const rows = (await q.query(`SELECT 'lz4' = ANY(enumvals) AS lz4 FROM pg_settings WHERE name = 'default_toast_compression'`)) as { lz4: boolean }[];
  return rows[0]?.lz4 === true;
}
