import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Billing (Stripe customers and subscriptions, processed webhook events, one ledger of
 * entitlements for every purchase: Stripe invoices and Telegram Stars), human review of checks,
 * and account deletion requests.
 *
 * Personal data hangs off `accounts` with ON DELETE CASCADE where it can; the purge
 * (repositories/account-purge.ts) handles what is kept anonymised.
 */
export class BillingAndDataHandling1795317000000 implements MigrationInterface {
  readonly name = "BillingAndDataHandling1795317000000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "billing_customers" (
      "account_id" text COLLATE "C" NOT NULL,
      "customer_id" text COLLATE "C" NOT NULL,
      "subscription_id" text COLLATE "C",
      "status" text,
      "plan" text,
      "cancel_at_period_end" boolean NOT NULL DEFAULT false,
      "current_period_end" timestamptz,
      "event_at" timestamptz,
      "updated_at" timestamptz NOT NULL,
      CONSTRAINT "billing_customers_pkey" PRIMARY KEY ("account_id"),
      CONSTRAINT "billing_customers_customer_key" UNIQUE ("customer_id"),
      CONSTRAINT "billing_customers_account_fk" FOREIGN KEY ("account_id") REFERENCES "accounts" ("id") ON DELETE CASCADE
    )`);
    // Only ids and types: an event's body (names, e-mail addresses) is never stored.
    await q.query(`CREATE TABLE "billing_events" (
      "id" text COLLATE "C" NOT NULL,
      "type" text NOT NULL,
      "received_at" timestamptz NOT NULL,
      CONSTRAINT "billing_events_pkey" PRIMARY KEY ("id")
    )`);
    // `account_id` while the account exists; a keyed hash (`account_ref`) after it is deleted.
    await q.query(`CREATE TABLE "entitlements" (
      "id" text COLLATE "C" NOT NULL,
      "source" text NOT NULL,
      "purchase_ref" text COLLATE "C" NOT NULL,
      "account_id" text COLLATE "C",
      "account_ref" text COLLATE "C",
      "chat" text COLLATE "C",
      "plan" text NOT NULL,
      "amount" integer NOT NULL,
      "currency" text NOT NULL,
      "period_start" timestamptz NOT NULL,
      "period_end" timestamptz,
      "refunded_at" timestamptz,
      "created_at" timestamptz NOT NULL,
      CONSTRAINT "entitlements_pkey" PRIMARY KEY ("id"),
      CONSTRAINT "entitlements_purchase_key" UNIQUE ("source", "purchase_ref"),
      CONSTRAINT "entitlements_source_check" CHECK ("source" IN ('stripe', 'telegram_stars'))
    )`);
    await q.query(`CREATE INDEX "entitlements_account_idx" ON "entitlements" ("account_id", "created_at") WHERE "account_id" IS NOT NULL`);
    await q.query(`CREATE TABLE "check_reviews" (
      "id" text COLLATE "C" NOT NULL,
      "account_id" text COLLATE "C" NOT NULL,
      "check_id" text COLLATE "C" NOT NULL,
      "reason" text NOT NULL,
      "status" text NOT NULL DEFAULT 'pending',
      "outcome" text,
      "note" text,
      "created_at" timestamptz NOT NULL,
      "resolved_at" timestamptz,
      CONSTRAINT "check_reviews_pkey" PRIMARY KEY ("id"),
      CONSTRAINT "check_reviews_check_key" UNIQUE ("account_id", "check_id"),
      CONSTRAINT "check_reviews_account_fk" FOREIGN KEY ("account_id") REFERENCES "accounts" ("id") ON DELETE CASCADE,
      CONSTRAINT "check_reviews_status_check" CHECK ("status" IN ('pending', 'resolved')),
      CONSTRAINT "check_reviews_outcome_check" CHECK ("outcome" IS NULL OR "outcome" IN ('upheld', 'changed', 'dismissed'))
    )`);
    await q.query(`CREATE INDEX "check_reviews_queue_idx" ON "check_reviews" ("status", "created_at", "id")`);
    // The request outlives the account (its id and dates only): the job names the request, never the account.
    await q.query(`CREATE TABLE "account_deletions" (
      "id" text COLLATE "C" NOT NULL,
      "account_id" text COLLATE "C",
      "requested_at" timestamptz NOT NULL,
      "purge_after" timestamptz NOT NULL,
      "completed_at" timestamptz,
      CONSTRAINT "account_deletions_pkey" PRIMARY KEY ("id"),
      CONSTRAINT "account_deletions_account_key" UNIQUE ("account_id")
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ["account_deletions", "check_reviews", "entitlements", "billing_events", "billing_customers"]) await q.query(`DROP TABLE "${t}"`);
  }
}
