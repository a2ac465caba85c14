import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * The moderation queue: each report records its last decision (when, by which operator, why);
 * the queue reads by status in arrival order, and a reporter's earned trust reads the
 * reporter's moderated reports.
 */
export class ReportModeration1795306100000 implements MigrationInterface {
  readonly name = "ReportModeration1795306100000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "reports" ADD COLUMN "moderated_at" timestamp with time zone`);
    await q.query(`ALTER TABLE "reports" ADD COLUMN "moderated_by" text COLLATE "C"`);
    await q.query(`ALTER TABLE "reports" ADD COLUMN "moderation_reason" text`);
    await q.query(`ALTER TABLE "reports" ADD CONSTRAINT "reports_moderation_status_check" CHECK ("moderation_status" IN ('unverified', 'confirmed', 'rejected'))`);
    await q.query(`CREATE INDEX "reports_queue_idx" ON "reports" ("moderation_status", "created_at", "id")`);
    await q.query(`CREATE INDEX "reports_created_idx" ON "reports" ("created_at", "id")`);
    await q.query(`CREATE INDEX "reports_reporter_idx" ON "reports" ("reporter_id", "moderation_status")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "reports_reporter_idx"`);
    await q.query(`DROP INDEX "reports_created_idx"`);
    await q.query(`DROP INDEX "reports_queue_idx"`);
    await q.query(`ALTER TABLE "reports" DROP CONSTRAINT "reports_moderation_status_check"`);
    await q.query(`ALTER TABLE "reports" DROP COLUMN "moderation_reason"`);
    await q.query(`ALTER TABLE "reports" DROP COLUMN "moderated_by"`);
    await q.query(`ALTER TABLE "reports" DROP COLUMN "moderated_at"`);
  }
}
