/** What an account sees of its webhook signing secret. */
export interface WebhookSecret {
  /** `whsec_` + base64 of 32 random bytes (Standard Webhooks). */
  readonly secret: string;
  readonly created_at: string;
  /** While set and in the future, the previous secret signs too (rotation overlap). */
  readonly previous_expires_at: string | null;
}

/** After a rotation the old secret keeps signing this long, so receivers can switch without a gap. */
export const WEBHOOK_SECRET_OVERLAP_MS = 24 * 3_600_000;

/** One signing secret per account, shared by every API and worker replica. */
export interface WebhookSecretStore {
  /** The account's current secret, created on first use. */
  current(accountId: string, now: Date): Promise<WebhookSecret>;
  /** A new secret; the old one keeps signing until `now` + 24 h (only the latest old one). */
  rotate(accountId: string, now: Date): Promise<WebhookSecret>;
  /** The secrets that sign at `now`, per account: current first, then the previous during its overlap. */
  signingSecrets(accountIds: readonly string[], now: Date): Promise<Map<string, string[]>>;
}
