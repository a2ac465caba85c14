import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Dashboard sign-in: web users (one account each), their social identities, browser sessions
 * (stored by the hash of the cookie value) and single-use e-mail tokens (stored hashed). All of
 * it goes with its account.
 */
export class WebAccounts1795316000000 implements MigrationInterface {
  readonly name = "WebAccounts1795316000000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "web_users" (
      "id" text COLLATE "C" NOT NULL,
      "account_id" text COLLATE "C" NOT NULL,
      "email" text COLLATE "C" NOT NULL,
      "name" text,
      "picture" text,
      "password_hash" text,
      "email_verified_at" timestamp with time zone,
      "dashboard_key_id" text COLLATE "C",
      "created_at" timestamp with time zone NOT NULL,
      CONSTRAINT "web_users_pkey" PRIMARY KEY ("id"),
      CONSTRAINT "web_users_email_key" UNIQUE ("email"),
      CONSTRAINT "web_users_account_fk" FOREIGN KEY ("account_id") REFERENCES "accounts" ("id") ON DELETE CASCADE
    )`);
    await q.query(`CREATE INDEX "web_users_account_idx" ON "web_users" ("account_id")`);
    await q.query(`CREATE TABLE "web_identities" (
      "provider" text COLLATE "C" NOT NULL,
      "subject" text COLLATE "C" NOT NULL,
      "user_id" text COLLATE "C" NOT NULL,
      "created_at" timestamp with time zone NOT NULL,
      CONSTRAINT "web_identities_pkey" PRIMARY KEY ("provider", "subject"),
      CONSTRAINT "web_identities_user_fk" FOREIGN KEY ("user_id") REFERENCES "web_users" ("id") ON DELETE CASCADE
    )`);
    await q.query(`CREATE INDEX "web_identities_user_idx" ON "web_identities" ("user_id")`);
    await q.query(`CREATE TABLE "web_sessions" (
      "id_hash" text COLLATE "C" NOT NULL,
      "user_id" text COLLATE "C",
      "created_at" timestamp with time zone NOT NULL,
      "expires_at" timestamp with time zone NOT NULL,
      "revoked_at" timestamp with time zone,
      "oauth_provider" text,
      "oauth_state_hash" text COLLATE "C",
      "oauth_verifier" text,
      CONSTRAINT "web_sessions_pkey" PRIMARY KEY ("id_hash"),
      CONSTRAINT "web_sessions_user_fk" FOREIGN KEY ("user_id") REFERENCES "web_users" ("id") ON DELETE CASCADE
    )`);
    await q.query(`CREATE INDEX "web_sessions_user_idx" ON "web_sessions" ("user_id")`);
    await q.query(`CREATE TABLE "web_tokens" (
      "token_hash" text COLLATE "C" NOT NULL,
      "user_id" text COLLATE "C" NOT NULL,
      "purpose" text NOT NULL,
      "created_at" timestamp with time zone NOT NULL,
      "expires_at" timestamp with time zone NOT NULL,
      "used_at" timestamp with time zone,
      CONSTRAINT "web_tokens_pkey" PRIMARY KEY ("token_hash"),
      CONSTRAINT "web_tokens_user_fk" FOREIGN KEY ("user_id") REFERENCES "web_users" ("id") ON DELETE CASCADE
    )`);
    await q.query(`CREATE INDEX "web_tokens_user_idx" ON "web_tokens" ("user_id")`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ["web_tokens", "web_sessions", "web_identities", "web_users"]) await q.query(`DROP TABLE "${t}"`);
  }
}
