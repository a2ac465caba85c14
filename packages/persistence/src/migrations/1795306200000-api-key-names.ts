import type { MigrationInterface, QueryRunner } from "typeorm";

/** API keys get an optional label (`ci`, `laptop`) so people can tell them apart in a list. */
export class ApiKeyNames1795306200000 implements MigrationInterface {
  readonly name = "ApiKeyNames1795306200000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "api_keys" ADD COLUMN "name" text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "api_keys" DROP COLUMN "name"`);
  }
}
