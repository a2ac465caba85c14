import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * A check records the Idempotency-Key of the request that made it, so a retry of a synchronous
 * request whose process died after storing the check answers that check instead of screening
 * (and charging, and auditing) again.
 */
export class CheckIdempotencyKeys1795318000000 implements MigrationInterface {
  readonly name = "CheckIdempotencyKeys1795318000000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "checks" ADD COLUMN "idempotency_key" text COLLATE "C"`);
    await q.query(`CREATE INDEX "checks_account_idempotency_idx" ON "checks" ("account_id", "idempotency_key") WHERE "idempotency_key" IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "checks_account_idempotency_idx"`);
    await q.query(`ALTER TABLE "checks" DROP COLUMN "idempotency_key"`);
  }
}
