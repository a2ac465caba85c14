import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * `checks.signals`: every signal a check produced, zero-point ones included (the verdict lists
 * only its reasons; an allowlisted verdict does not list the signals the allowlist overrode).
 * Null for records stored before.
 *
 * Secrets of the service itself, by name (the key that signs history cursors is the first):
 * made at first start, read by every replica, so what one replica signs another accepts, and
 * a restart does not invalidate what clients hold.
 */
export class ServerSecretsAndAuditSignals1795306600000 implements MigrationInterface {
  readonly name = "ServerSecretsAndAuditSignals1795306600000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "server_secrets" (
      "name" text COLLATE "C" NOT NULL,
      "secret" text NOT NULL,
      "created_at" timestamp with time zone NOT NULL,
      CONSTRAINT "server_secrets_pkey" PRIMARY KEY ("name")
    )`);
    await q.query(`ALTER TABLE "checks" ADD COLUMN "signals" jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "checks" DROP COLUMN "signals"`);
    await q.query(`DROP TABLE "server_secrets"`);
  }
}
