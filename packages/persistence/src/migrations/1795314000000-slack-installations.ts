import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * The Slack app's per-workspace installations (the bot token sealed by the app before it gets
 * here: the column holds ciphertext only) and the single-use OAuth `state` values of installs in
 * progress. (Handled Events API deliveries go to the bots' shared `bot_seen_events`.) No message
 * text anywhere.
 */
export class SlackInstallations1795314000000 implements MigrationInterface {
  readonly name = "SlackInstallations1795314000000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "slack_installations" (
      "team_id" text COLLATE "C" NOT NULL,
      "enterprise_id" text COLLATE "C",
      "bot_user_id" text COLLATE "C" NOT NULL,
      "bot_id" text COLLATE "C",
      "bot_token_sealed" text NOT NULL,
      "scopes" text NOT NULL,
      "installed_by" text COLLATE "C",
      "installed_at" timestamp with time zone NOT NULL,
      CONSTRAINT "slack_installations_pkey" PRIMARY KEY ("team_id")
    )`);
    await q.query(`CREATE TABLE "slack_oauth_states" (
      "state" text COLLATE "C" NOT NULL,
      "expires_at" timestamp with time zone NOT NULL,
      CONSTRAINT "slack_oauth_states_pkey" PRIMARY KEY ("state")
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ["slack_oauth_states", "slack_installations"]) await q.query(`DROP TABLE IF EXISTS "${t}"`);
  }
}
