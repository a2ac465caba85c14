import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * The first schema: accounts and keys, the audit trail with its per-account hash chain,
 * idempotency records and usage counters (shared by every API replica), community reports,
 * the entity graph and intel lists. Identifiers use `COLLATE "C"` so they sort byte-wise on
 * every engine. Runs unchanged on PostgreSQL and PGlite.
 */
export class InitialSchema1795305600000 implements MigrationInterface {
  readonly name = "InitialSchema1795305600000";

  async up(q: QueryRunner): Promise<void> {
    for (const sql of UP) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [...TABLES].reverse()) await q.query(`DROP TABLE IF EXISTS "${table}"`);
  }
}

const TABLES = [
  "accounts", "api_keys", "checks", "check_chain_heads", "idempotency_keys", "usage_counters",
  "reporters", "reports", "graph_nodes", "graph_edges", "intel_records",
] as const;

const UP = [
  `CREATE TABLE "accounts" (
    "id" text COLLATE "C" NOT NULL,
    "name" text NOT NULL,
    "plan" text NOT NULL,
    "created_at" timestamp with time zone NOT NULL,
    CONSTRAINT "accounts_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "accounts_plan_check" CHECK ("plan" IN ('free', 'starter', 'pro'))
  )`,
  `CREATE TABLE "api_keys" (
    "id" text COLLATE "C" NOT NULL,
    "account_id" text COLLATE "C" NOT NULL,
    "key_hash" text COLLATE "C" NOT NULL,
    "prefix" text NOT NULL,
    "plan" text,
    "created_at" timestamp with time zone NOT NULL,
    "revoked_at" timestamp with time zone,
    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "api_keys_key_hash_key" UNIQUE ("key_hash"),
    CONSTRAINT "api_keys_account_fk" FOREIGN KEY ("account_id") REFERENCES "accounts" ("id") ON DELETE CASCADE,
    CONSTRAINT "api_keys_plan_check" CHECK ("plan" IS NULL OR "plan" IN ('free', 'starter', 'pro'))
  )`,
  `CREATE INDEX "api_keys_account_idx" ON "api_keys" ("account_id", "created_at")`,

  // No foreign key to accounts: audit records outlive account deletion (kept anonymised).
  `CREATE TABLE "checks" (
    "id" text COLLATE "C" NOT NULL,
    "account_id" text COLLATE "C" NOT NULL,
    "seq" integer NOT NULL,
    "created_at" timestamp with time zone NOT NULL,
    "entity_type" text NOT NULL,
    "entity_value" text NOT NULL,
    "entity_id" text NOT NULL,
    "risk_score" integer NOT NULL,
    "risk_level" text NOT NULL,
    "confidence" text NOT NULL,
    "channel" text NOT NULL,
    "actor_key_id" text,
    "request" jsonb NOT NULL,
    "entity" jsonb NOT NULL,
    "verdict" jsonb NOT NULL,
    "source_outcomes" jsonb NOT NULL,
    "ruleset" text NOT NULL,
    "data_versions" jsonb NOT NULL,
    "prev_hash" text,
    "record_hash" text NOT NULL,
    CONSTRAINT "checks_pkey" PRIMARY KEY ("id"),
    -- Chain order for verification.
    CONSTRAINT "checks_account_seq_key" UNIQUE ("account_id", "seq")
  )`,
  // History (newest first, keyset on created_at, id) and export (the same index read backwards).
  `CREATE INDEX "checks_account_created_idx" ON "checks" ("account_id", "created_at" DESC, "id" DESC)`,
  `CREATE TABLE "check_chain_heads" (
    "account_id" text COLLATE "C" NOT NULL,
    "seq" integer NOT NULL,
    "last_hash" text,
    CONSTRAINT "check_chain_heads_pkey" PRIMARY KEY ("account_id")
  )`,

  `CREATE TABLE "idempotency_keys" (
    "account_id" text COLLATE "C" NOT NULL,
    "key" text COLLATE "C" NOT NULL,
    "request_hash" text NOT NULL,
    "status" integer,
    "body" jsonb,
    "created_at" timestamp with time zone NOT NULL,
    "expires_at" timestamp with time zone NOT NULL,
    CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY ("account_id", "key")
  )`,
  `CREATE INDEX "idempotency_keys_expires_idx" ON "idempotency_keys" ("expires_at")`,
  `CREATE TABLE "usage_counters" (
    "key" text COLLATE "C" NOT NULL,
    "window_kind" text COLLATE "C" NOT NULL,
    "window_start" timestamp with time zone NOT NULL,
    "count" integer NOT NULL,
    CONSTRAINT "usage_counters_pkey" PRIMARY KEY ("key", "window_kind", "window_start")
  )`,
  `CREATE INDEX "usage_counters_window_idx" ON "usage_counters" ("window_kind", "window_start")`,

  `CREATE TABLE "reporters" (
    "id" text COLLATE "C" NOT NULL,
    "trust" double precision NOT NULL,
    CONSTRAINT "reporters_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "reporters_trust_check" CHECK ("trust" >= 0 AND "trust" <= 1)
  )`,
  `CREATE TABLE "reports" (
    "id" text COLLATE "C" NOT NULL,
    "reporter_id" text COLLATE "C" NOT NULL,
    "entity_id" text COLLATE "C" NOT NULL,
    "entity_type" text NOT NULL,
    "entity_value" text NOT NULL,
    "category" text NOT NULL,
    "description" text,
    "evidence_urls" jsonb NOT NULL,
    "related_entities" jsonb NOT NULL,
    "check_id" text,
    "feedback" text,
    "moderation_status" text NOT NULL,
    "created_at" timestamp with time zone NOT NULL,
    "updated_at" timestamp with time zone NOT NULL,
    CONSTRAINT "reports_pkey" PRIMARY KEY ("id"),
    -- One report per reporter per entity; also the index aggregation reads by entity.
    CONSTRAINT "reports_entity_reporter_key" UNIQUE ("entity_id", "reporter_id")
  )`,

  `CREATE TABLE "graph_nodes" (
    "id" text COLLATE "C" NOT NULL,
    "type" text NOT NULL,
    "value" text NOT NULL,
    "risk_score" integer,
    "risk_level" text,
    CONSTRAINT "graph_nodes_pkey" PRIMARY KEY ("id")
  )`,
  `CREATE INDEX "graph_nodes_bad_idx" ON "graph_nodes" ("risk_score")`,
  `CREATE TABLE "graph_edges" (
    "from_id" text COLLATE "C" NOT NULL,
    "to_id" text COLLATE "C" NOT NULL,
    "relation" text COLLATE "C" NOT NULL,
    "weight" double precision NOT NULL,
    "source" text NOT NULL,
    "first_seen" timestamp with time zone NOT NULL,
    "last_seen" timestamp with time zone NOT NULL,
    -- Also the index for walking along the edge direction.
    CONSTRAINT "graph_edges_pkey" PRIMARY KEY ("from_id", "to_id", "relation"),
    CONSTRAINT "graph_edges_from_fk" FOREIGN KEY ("from_id") REFERENCES "graph_nodes" ("id") ON DELETE CASCADE,
    CONSTRAINT "graph_edges_to_fk" FOREIGN KEY ("to_id") REFERENCES "graph_nodes" ("id") ON DELETE CASCADE
  )`,
  // Walking against the edge direction.
  `CREATE INDEX "graph_edges_to_idx" ON "graph_edges" ("to_id", "from_id", "relation")`,

  `CREATE TABLE "intel_records" (
    "type" text COLLATE "C" NOT NULL,
    "value" text COLLATE "C" NOT NULL,
    "list" text COLLATE "C" NOT NULL,
    "source" text COLLATE "C" NOT NULL,
    "label" text NOT NULL,
    "added_at" timestamp with time zone,
    "updated_at" timestamp with time zone NOT NULL,
    -- Also the lookup index by (type, value).
    CONSTRAINT "intel_records_pkey" PRIMARY KEY ("type", "value", "list", "source"),
    CONSTRAINT "intel_records_list_check" CHECK ("list" IN ('allow', 'block'))
  )`,
];
