import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Live feeds (docs/feeds.md): `intel_records.version` is the version of the data set an entry
 * first came in (a feed's content version; null for lists imported by hand), and a feed's
 * entries are replaced by source, hence the index on it. `intel_feeds` is the state of each
 * configured feed: the validators of its last response (ETag, Last-Modified), its version, when
 * it was last loaded and checked, and the last error (the old entries stay when a sync fails).
 */
export class IntelFeeds1795311000000 implements MigrationInterface {
  readonly name = "IntelFeeds1795311000000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "intel_records" ADD COLUMN "version" text`);
    await q.query(`CREATE INDEX "intel_records_source_idx" ON "intel_records" ("source")`);
    await q.query(`CREATE TABLE "intel_feeds" (
      "name" text COLLATE "C" NOT NULL,
      "url" text NOT NULL,
      "format" text NOT NULL,
      "etag" text,
      "last_modified" text,
      "version" text,
      "content_sha256" text,
      "entries" integer NOT NULL,
      "synced_at" timestamp with time zone,
      "checked_at" timestamp with time zone,
      "last_error" text,
      "last_result" jsonb,
      CONSTRAINT "intel_feeds_pkey" PRIMARY KEY ("name")
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "intel_feeds"`);
    await q.query(`DROP INDEX "intel_records_source_idx"`);
    await q.query(`ALTER TABLE "intel_records" DROP COLUMN "version"`);
  }
}
