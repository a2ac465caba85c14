import type { DataSource } from "typeorm";

/** One workspace's installation as stored: the bot token only in sealed (encrypted) form. */
export interface SlackInstallationRecord {
  readonly teamId: string;
  readonly enterpriseId: string | null;
  readonly botUserId: string;
  readonly botId: string | null;
  /** Opaque ciphertext made by the app; this store never sees the token. */
  readonly botTokenSealed: string;
  readonly scopes: string;
  readonly installedBy: string | null;
  readonly installedAt: Date;
}

interface Row {
  team_id: string;
  enterprise_id: string | null;
  bot_user_id: string;
  bot_id: string | null;
  bot_token_sealed: string;
  scopes: string;
  installed_by: string | null;
  installed_at: Date | string;
}

const toRecord = (r: Row): SlackInstallationRecord => ({
  teamId: r.team_id,
  enterpriseId: r.enterprise_id,
  botUserId: r.bot_user_id,
  botId: r.bot_id,
  botTokenSealed: r.bot_token_sealed,
  scopes: r.scopes,
  installedBy: r.installed_by,
  installedAt: new Date(r.installed_at),
});

/**
 * Slack's per-workspace state: installations (`slack_installations`) and OAuth states of
 * installs in progress (single use, expiring).
 */
export class TypeOrmSlackInstallations {
  constructor(private readonly ds: DataSource) {}

  /** Installing again (new scopes, new token) replaces the workspace's row. */
  async save(i: SlackInstallationRecord): Promise<void> {
    await this.ds.query(
      `INSERT INTO slack_installations (team_id, enterprise_id, bot_user_id, bot_id, bot_token_sealed, scopes, installed_by, installed_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8::timestamptz)
       ON CONFLICT (team_id) DO UPDATE SET enterprise_id = EXCLUDED.enterprise_id, bot_user_id = EXCLUDED.bot_user_id, bot_id = EXCLUDED.bot_id,
         bot_token_sealed = EXCLUDED.bot_token_sealed, scopes = EXCLUDED.scopes, installed_by = EXCLUDED.installed_by, installed_at = EXCLUDED.installed_at`,
      [i.teamId, i.enterpriseId, i.botUserId, i.botId, i.botTokenSealed, i.scopes, i.installedBy, i.installedAt],
    );
  }

  async find(teamId: string): Promise<SlackInstallationRecord | null> {
    const rows = (await this.ds.query(`SELECT * FROM slack_installations WHERE team_id = $1`, [teamId])) as Row[];
    return rows[0] ? toRecord(rows[0]) : null;
  }

  /** True when there was an installation to delete. */
  async delete(teamId: string): Promise<boolean> {
    const rows = (await this.ds.query(`DELETE FROM slack_installations WHERE team_id = $1 RETURNING team_id`, [teamId])) as unknown[];
    return rows.length > 0;
  }

  async addState(state: string, expiresAt: Date): Promise<void> {
    await this.ds.query(`INSERT INTO slack_oauth_states (state, expires_at) VALUES ($1, $2::timestamptz)`, [state, expiresAt]);
  }

  /** Uses up a state: true once, for a state that exists and has not expired; expired ones are swept. */
  async consumeState(state: string, now: Date): Promise<boolean> {
    await this.ds.query(`DELETE FROM slack_oauth_states WHERE expires_at <= $1::timestamptz`, [now]);
    const rows = (await this.ds.query(`DELETE FROM slack_oauth_states WHERE state = $1 AND expires_at > $2::timestamptz RETURNING state`, [state, now])) as unknown[];
    return rows.length > 0;
  }
}
