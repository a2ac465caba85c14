import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Accounts get a role: the operator runs the service (moderates reports, manages other
 * accounts' keys, verifies the audit chain); everyone else is a customer. The account created
 * at first start (`acc_admin`) is the operator.
 */
export class AccountRoles1795305900000 implements MigrationInterface {
  readonly name = "AccountRoles1795305900000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "accounts" ADD COLUMN "role" text NOT NULL DEFAULT 'customer'`);
    await q.query(`ALTER TABLE "accounts" ADD CONSTRAINT "accounts_role_check" CHECK ("role" IN ('customer', 'operator'))`);
    await q.query(`UPDATE "accounts" SET "role" = 'operator' WHERE "id" = 'acc_admin'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "accounts" DROP COLUMN "role"`);
  }
}
