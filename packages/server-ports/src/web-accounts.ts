/**
 * People who sign in to the web dashboard. A web user belongs to one account (sign-up makes one
 * on the free plan); API keys stay the way programs call the API. Only what sign-in needs is
 * kept: e-mail, an argon2id password hash (none for social sign-in), and from a social provider
 * the name and picture URL.
 */
export interface WebUser {
  readonly id: string;
  readonly account_id: string;
  /** Lower-cased. */
  readonly email: string;
  readonly name: string | null;
  readonly picture: string | null;
  readonly password_hash: string | null;
  readonly email_verified_at: string | null;
  /** The key the dashboard calls the API with on this user's behalf (its secret is never kept). */
  readonly dashboard_key_id: string | null;
  readonly created_at: string;
}

export interface NewWebUser {
  readonly account_id: string;
  readonly email: string;
  readonly password_hash?: string | null;
  readonly name?: string | null;
  readonly picture?: string | null;
  readonly email_verified?: boolean;
  readonly dashboard_key_id?: string | null;
}

/**
 * A browser session, stored by the SHA-256 of its cookie value. A session without a user is a
 * social sign-in in progress: it holds that flow's state (hashed) and PKCE verifier.
 */
export interface WebSession {
  readonly id_hash: string;
  readonly user_id: string | null;
  readonly created_at: string;
  readonly expires_at: string;
  readonly revoked_at: string | null;
  readonly oauth_provider: string | null;
  readonly oauth_state_hash: string | null;
  readonly oauth_verifier: string | null;
}

export type WebTokenPurpose = "verify_email" | "reset_password";

export interface WebAccountStore {
  /** null when the e-mail address is taken. */
  createUser(input: NewWebUser, now: Date): Promise<WebUser | null>;
  userById(id: string): Promise<WebUser | null>;
  userByEmail(email: string): Promise<WebUser | null>;
  userByIdentity(provider: string, subject: string): Promise<WebUser | null>;
  linkIdentity(provider: string, subject: string, userId: string, now: Date): Promise<void>;
  updateUser(id: string, patch: { password_hash?: string; email_verified_at?: Date; dashboard_key_id?: string; name?: string | null; picture?: string | null }): Promise<void>;
  createSession(input: { id_hash: string; user_id: string | null; expires_at: Date; oauth_provider?: string; oauth_state_hash?: string; oauth_verifier?: string }, now: Date): Promise<void>;
  session(idHash: string): Promise<WebSession | null>;
  revokeSession(idHash: string, now: Date): Promise<void>;
  /** Every live session of the user; returns how many. */
  revokeUserSessions(userId: string, now: Date): Promise<number>;
  createToken(input: { token_hash: string; user_id: string; purpose: WebTokenPurpose; expires_at: Date }, now: Date): Promise<void>;
  /** Marks the token used, once: the user id when it was unused, unexpired and of this purpose, else null. */
  useToken(tokenHash: string, purpose: WebTokenPurpose, now: Date): Promise<string | null>;
}
