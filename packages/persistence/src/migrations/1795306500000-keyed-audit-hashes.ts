import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Audit records are sealed with a keyed hash (HMAC-SHA-256 under a server key the database does
 * not hold) from now on; each record says which scheme and which key sealed it. Records written
 * before stay as they are (hash_version 1, plain SHA-256) and are verified by their own scheme:
 * the key is not available here, and sealing them now would claim nothing about their past.
 * The chain head gets its own keyed hash so that records removed from the end are caught.
 */
export class KeyedAuditHashes1795306500000 implements MigrationInterface {
  readonly name = "KeyedAuditHashes1795306500000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "checks" ADD COLUMN "hash_version" integer NOT NULL DEFAULT 1`);
    // Existing rows are version 1; every new row states its version itself.
    await q.query(`ALTER TABLE "checks" ALTER COLUMN "hash_version" DROP DEFAULT`);
    await q.query(`ALTER TABLE "checks" ADD COLUMN "hash_key_id" text`);
    await q.query(`ALTER TABLE "check_chain_heads" ADD COLUMN "mac" text`);
    await q.query(`ALTER TABLE "check_chain_heads" ADD COLUMN "mac_key_id" text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "check_chain_heads" DROP COLUMN "mac_key_id"`);
    await q.query(`ALTER TABLE "check_chain_heads" DROP COLUMN "mac"`);
    await q.query(`ALTER TABLE "checks" DROP COLUMN "hash_key_id"`);
    await q.query(`ALTER TABLE "checks" DROP COLUMN "hash_version"`);
  }
}
