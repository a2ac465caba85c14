import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Answers of outside reputation providers (RDAP, DNS, Safe Browsing, AbuseIPDB ...), cached in the
 * database so every replica shares them: positive answers (findings) and negative ones (nothing
 * known), each until its own expiry. Keyed by provider and the entity's canonical id only.
 */
export class ProviderCache1795319000000 implements MigrationInterface {
  readonly name = "ProviderCache1795319000000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "provider_cache" (
      "provider" text COLLATE "C" NOT NULL,
      "entity_key" text COLLATE "C" NOT NULL,
      "findings" jsonb NOT NULL,
      "fetched_at" timestamp with time zone NOT NULL,
      "expires_at" timestamp with time zone NOT NULL,
      CONSTRAINT "provider_cache_pk" PRIMARY KEY ("provider", "entity_key")
    )`);
    await q.query(`CREATE INDEX "provider_cache_expires_idx" ON "provider_cache" ("expires_at")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "provider_cache"`);
  }
}
