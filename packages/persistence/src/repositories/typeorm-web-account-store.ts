import type { DataSource } from "typeorm";
import type { NewWebUser, WebAccountStore, WebSession, WebTokenPurpose, WebUser } from "@svc/server-ports";
import { WebIdentityEntity, WebSessionEntity, WebTokenEntity, WebUserEntity, type WebSessionRow, type WebUserRow } from "../entities/web.js";
import { affectedOf, iso, isoOrNull, newId } from "./sql.js";

export class TypeOrmWebAccountStore implements WebAccountStore {
  constructor(private readonly ds: DataSource) {}

  async createUser(input: NewWebUser, now: Date): Promise<WebUser | null> {
    const row: WebUserRow = {
      id: newId("usr"),
      account_id: input.account_id,
      email: input.email.toLowerCase(),
      name: input.name ?? null,
      picture: input.picture ?? null,
      password_hash: input.password_hash ?? null,
      email_verified_at: input.email_verified ? now : null,
      dashboard_key_id: input.dashboard_key_id ?? null,
      created_at: now,
    };
    // A taken e-mail address inserts nothing.
    const raw = (await this.ds.query(
      `INSERT INTO web_users (id, account_id, email, name, picture, password_hash, email_verified_at, dashboard_key_id, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (email) DO NOTHING RETURNING id`,
      [row.id, row.account_id, row.email, row.name, row.picture, row.password_hash, row.email_verified_at, row.dashboard_key_id, row.created_at],
    )) as unknown;
    return rowsOf<{ id: string }>(raw).length === 0 ? null : toUser(row);
  }

  async userById(id: string): Promise<WebUser | null> {
    const row = await this.ds.getRepository(WebUserEntity).findOneBy({ id });
    return row ? toUser(row) : null;
  }

  async userByEmail(email: string): Promise<WebUser | null> {
    const row = await this.ds.getRepository(WebUserEntity).findOneBy({ email: email.toLowerCase() });
    return row ? toUser(row) : null;
  }

  async userByIdentity(provider: string, subject: string): Promise<WebUser | null> {
    const link = await this.ds.getRepository(WebIdentityEntity).findOneBy({ provider, subject });
    return link ? this.userById(link.user_id) : null;
  }

  async linkIdentity(provider: string, subject: string, userId: string, now: Date): Promise<void> {
    await this.ds.createQueryBuilder().insert().into(WebIdentityEntity).values({ provider, subject, user_id: userId, created_at: now }).orIgnore().execute();
  }

  async updateUser(id: string, patch: { password_hash?: string; email_verified_at?: Date; dashboard_key_id?: string; name?: string | null; picture?: string | null }): Promise<void> {
    if (Object.keys(patch).length === 0) return;
    await this.ds.getRepository(WebUserEntity).update({ id }, patch);
  }

  async createSession(input: { id_hash: string; user_id: string | null; expires_at: Date; oauth_provider?: string; oauth_state_hash?: string; oauth_verifier?: string }, now: Date): Promise<void> {
    await this.ds.getRepository(WebSessionEntity).insert({
      id_hash: input.id_hash,
      user_id: input.user_id,
      created_at: now,
      expires_at: input.expires_at,
      revoked_at: null,
      oauth_provider: input.oauth_provider ?? null,
      oauth_state_hash: input.oauth_state_hash ?? null,
      oauth_verifier: input.oauth_verifier ?? null,
    });
  }

  async session(idHash: string): Promise<WebSession | null> {
    const row = await this.ds.getRepository(WebSessionEntity).findOneBy({ id_hash: idHash });
    return row ? toSession(row) : null;
  }

  async revokeSession(idHash: string, now: Date): Promise<void> {
    await this.ds.query(`UPDATE web_sessions SET revoked_at = $2 WHERE id_hash = $1 AND revoked_at IS NULL`, [idHash, now]);
  }

  async revokeUserSessions(userId: string, now: Date): Promise<number> {
    return affectedOf(await this.ds.query(`UPDATE web_sessions SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL`, [userId, now]));
  }

  async createToken(input: { token_hash: string; user_id: string; purpose: WebTokenPurpose; expires_at: Date }, now: Date): Promise<void> {
    await this.ds.getRepository(WebTokenEntity).insert({ ...input, created_at: now, used_at: null });
  }

  async useToken(tokenHash: string, purpose: WebTokenPurpose, now: Date): Promise<string | null> {
    // One statement: two concurrent uses of the same token cannot both succeed.
    const raw = (await this.ds.query(
      `UPDATE web_tokens SET used_at = $3 WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > $3 RETURNING user_id`,
      [tokenHash, purpose, now],
    )) as unknown;
    return rowsOf<{ user_id: string }>(raw)[0]?.user_id ?? null;
  }
}

/** Rows of a raw statement: TypeORM's postgres dialect answers UPDATE … RETURNING with `[rows, count]`. */
const rowsOf = <T>(raw: unknown): T[] => (Array.isArray(raw) && Array.isArray(raw[0]) ? raw[0] : Array.isArray(raw) ? raw : []) as T[];

const toUser = (r: WebUserRow): WebUser => ({
  id: r.id,
  account_id: r.account_id,
  email: r.email,
  name: r.name,
  picture: r.picture,
  password_hash: r.password_hash,
  email_verified_at: isoOrNull(r.email_verified_at),
  dashboard_key_id: r.dashboard_key_id,
  created_at: iso(r.created_at),
});

const toSession = (r: WebSessionRow): WebSession => ({
  id_hash: r.id_hash,
  user_id: r.user_id,
  created_at: iso(r.created_at),
  expires_at: iso(r.expires_at),
  revoked_at: isoOrNull(r.revoked_at),
  oauth_provider: r.oauth_provider,
  oauth_state_hash: r.oauth_state_hash,
  oauth_verifier: r.oauth_verifier,
});
