import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Asynchronous checks and their webhooks: the jobs as the API shows them, the embedded job
 * queue (leased rows; PostgreSQL deployments use pg-boss's own schema instead), one signing
 * secret per account, the webhook outbox (written in the transaction that stores the verdict),
 * every delivery attempt, and endpoints disabled by a 410. Runs unchanged on PostgreSQL and PGlite.
 */
export class JobsAndWebhooks1795305700000 implements MigrationInterface {
  readonly name = "JobsAndWebhooks1795305700000";

  async up(q: QueryRunner): Promise<void> {
    for (const sql of UP) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [...TABLES].reverse()) await q.query(`DROP TABLE IF EXISTS "${table}"`);
  }
}

const TABLES = ["async_jobs", "job_queue", "webhook_secrets", "webhook_messages", "webhook_attempts", "webhook_endpoints"] as const;

const UP = [
  `CREATE TABLE "async_jobs" (
    "id" text COLLATE "C" NOT NULL,
    "account_id" text COLLATE "C" NOT NULL,
    "key_id" text COLLATE "C",
    "status" text NOT NULL,
    "request" jsonb NOT NULL,
    "webhook_url" text,
    "metadata" jsonb,
    "check_id" text COLLATE "C",
    "error" jsonb,
    "attempts" integer NOT NULL DEFAULT 0,
    -- The fencing token of the run that may finish the job: a run whose lease ran out and was
    -- taken over can no longer commit.
    "run_token" text,
    "created_at" timestamp with time zone NOT NULL,
    "started_at" timestamp with time zone,
    "finished_at" timestamp with time zone,
    CONSTRAINT "async_jobs_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "async_jobs_check_id_key" UNIQUE ("check_id"),
    CONSTRAINT "async_jobs_status_check" CHECK ("status" IN ('queued', 'running', 'succeeded', 'failed', 'canceled'))
  )`,
  `CREATE INDEX "async_jobs_account_idx" ON "async_jobs" ("account_id", "created_at")`,

  `CREATE TABLE "job_queue" (
    "id" text COLLATE "C" NOT NULL,
    "queue" text COLLATE "C" NOT NULL,
    "data" jsonb NOT NULL,
    "state" text NOT NULL,
    "retry_count" integer NOT NULL DEFAULT 0,
    "retry_limit" integer NOT NULL,
    "retry_delay_seconds" integer NOT NULL,
    "lease_seconds" integer NOT NULL,
    "dead_letter" text COLLATE "C",
    "start_after" timestamp with time zone NOT NULL,
    "locked_until" timestamp with time zone,
    "locked_by" text,
    "created_at" timestamp with time zone NOT NULL,
    "started_at" timestamp with time zone,
    "completed_at" timestamp with time zone,
    "output" jsonb,
    CONSTRAINT "job_queue_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "job_queue_state_check" CHECK ("state" IN ('created', 'retry', 'active', 'completed', 'failed'))
  )`,
  `CREATE INDEX "job_queue_next_idx" ON "job_queue" ("queue", "start_after", "created_at") WHERE "state" IN ('created', 'retry')`,
  `CREATE INDEX "job_queue_lease_idx" ON "job_queue" ("locked_until") WHERE "state" = 'active'`,
  `CREATE INDEX "job_queue_done_idx" ON "job_queue" ("completed_at") WHERE "state" IN ('completed', 'failed')`,

  `CREATE TABLE "webhook_secrets" (
    "account_id" text COLLATE "C" NOT NULL,
    "secret" text NOT NULL,
    "created_at" timestamp with time zone NOT NULL,
    "previous_secret" text,
    "previous_expires_at" timestamp with time zone,
    CONSTRAINT "webhook_secrets_pkey" PRIMARY KEY ("account_id")
  )`,

  // The outbox: one message per finished job that named a webhook URL. `id` is the webhook-id.
  `CREATE TABLE "webhook_messages" (
    "id" text COLLATE "C" NOT NULL,
    "job_id" text COLLATE "C" NOT NULL,
    "account_id" text COLLATE "C" NOT NULL,
    "url" text NOT NULL,
    "event_type" text NOT NULL,
    "body" text NOT NULL,
    "status" text NOT NULL,
    "attempts" integer NOT NULL DEFAULT 0,
    "next_attempt_at" timestamp with time zone,
    "last_attempt_at" timestamp with time zone,
    "last_status_code" integer,
    "last_error" text,
    "locked_until" timestamp with time zone,
    "locked_by" text,
    "created_at" timestamp with time zone NOT NULL,
    "delivered_at" timestamp with time zone,
    CONSTRAINT "webhook_messages_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "webhook_messages_job_key" UNIQUE ("job_id"),
    CONSTRAINT "webhook_messages_status_check" CHECK ("status" IN ('pending', 'delivered', 'failed', 'disabled'))
  )`,
  `CREATE INDEX "webhook_messages_due_idx" ON "webhook_messages" ("next_attempt_at") WHERE "status" = 'pending'`,

  `CREATE TABLE "webhook_attempts" (
    "message_id" text COLLATE "C" NOT NULL,
    "attempt" integer NOT NULL,
    "started_at" timestamp with time zone NOT NULL,
    "duration_ms" integer NOT NULL,
    "outcome" text NOT NULL,
    "status_code" integer,
    "error" text,
    CONSTRAINT "webhook_attempts_pkey" PRIMARY KEY ("message_id", "attempt")
  )`,

  // A 410 Gone disables the endpoint for every message created before it answered so.
  `CREATE TABLE "webhook_endpoints" (
    "account_id" text COLLATE "C" NOT NULL,
    "url" text NOT NULL,
    "disabled_at" timestamp with time zone NOT NULL,
    "reason" text NOT NULL,
    CONSTRAINT "webhook_endpoints_pkey" PRIMARY KEY ("account_id", "url")
  )`,
];
