import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Plans become the operator's configuration (`SVC_PLANS`), so the database no longer lists
 * them: the API validates plan names against the configured plans. The operator's account
 * gets the `operator` plan (no per-minute cap). The per-minute rate limit moves from fixed
 * minute counters to one sliding window per key (`rate_windows`; docs/decisions/0018).
 */
export class ConfigurablePlans1795306300000 implements MigrationInterface {
  readonly name = "ConfigurablePlans1795306300000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "accounts" DROP CONSTRAINT "accounts_plan_check"`);
    await q.query(`ALTER TABLE "api_keys" DROP CONSTRAINT "api_keys_plan_check"`);
    await q.query(`UPDATE "accounts" SET "plan" = 'operator' WHERE "id" = 'acc_admin' AND "plan" = 'pro'`);
    await q.query(`CREATE TABLE "rate_windows" (
      "key" text COLLATE "C" NOT NULL,
      "slots" bigint array NOT NULL,
      "counts" integer array NOT NULL,
      CONSTRAINT "rate_windows_pkey" PRIMARY KEY ("key")
    )`);
    // Fixed minute windows are no longer written; month windows stay in usage_counters.
    await q.query(`DELETE FROM "usage_counters" WHERE "window_kind" = 'minute'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "rate_windows"`);
    await q.query(`UPDATE "accounts" SET "plan" = 'pro' WHERE "plan" NOT IN ('free', 'starter', 'pro')`);
    await q.query(`UPDATE "api_keys" SET "plan" = NULL WHERE "plan" NOT IN ('free', 'starter', 'pro')`);
    await q.query(`ALTER TABLE "accounts" ADD CONSTRAINT "accounts_plan_check" CHECK ("plan" IN ('free', 'starter', 'pro'))`);
    await q.query(`ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_plan_check" CHECK ("plan" IS NULL OR "plan" IN ('free', 'starter', 'pro'))`);
  }
}
