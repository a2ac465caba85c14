import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * An Idempotency-Key in flight is held by a lease its request renews; when the process dies the
 * lease runs out and the retry takes the key over (it used to stay "in flight" for 24 h). An
 * asynchronous job records the key of the request that created it, so that retry finds the job
 * instead of creating a second one.
 */
export class IdempotencyLeases1795306400000 implements MigrationInterface {
  readonly name = "IdempotencyLeases1795306400000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "idempotency_keys" ADD COLUMN "holder" text, ADD COLUMN "lease_expires_at" timestamp with time zone`);
    // Keys left in flight by a crash before this migration: their lease has already run out.
    await q.query(`UPDATE "idempotency_keys" SET "lease_expires_at" = "created_at" WHERE "status" IS NULL`);
    await q.query(`ALTER TABLE "async_jobs" ADD COLUMN "idempotency_key" text COLLATE "C"`);
    await q.query(`CREATE INDEX "async_jobs_idempotency_idx" ON "async_jobs" ("account_id", "idempotency_key", "created_at") WHERE "idempotency_key" IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "async_jobs_idempotency_idx"`);
    await q.query(`ALTER TABLE "async_jobs" DROP COLUMN "idempotency_key"`);
    await q.query(`ALTER TABLE "idempotency_keys" DROP COLUMN "holder", DROP COLUMN "lease_expires_at"`);
  }
}
