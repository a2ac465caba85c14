import { WEBHOOK_SECRET_OVERLAP_MS, type WebhookSecret, type WebhookSecretStore } from "@svc/server-ports";
import type { DataSource } from "typeorm";
import { iso, isoOrNull, rowsOf } from "../sql.js";
import { generateWebhookSecret } from "./signing.js";

interface SecretRow {
  account_id: string;
  secret: string;
  created_at: Date;
  previous_secret: string | null;
  previous_expires_at: Date | null;
}

const view = (r: SecretRow): WebhookSecret => ({ secret: r.secret, created_at: iso(r.created_at), previous_expires_at: isoOrNull(r.previous_expires_at) });

/**
 * Secrets are stored as they are: signing needs them. Rotation keeps only the latest previous
 * secret, which signs alongside the new one for 24 h.
 */
export class TypeOrmWebhookSecretStore implements WebhookSecretStore {
  constructor(private readonly ds: DataSource) {}

  async current(accountId: string, now: Date): Promise<WebhookSecret> {
    const [existing] = await rowsOf<SecretRow>(this.ds, `SELECT * FROM webhook_secrets WHERE account_id = $1`, [accountId]);
    if (existing) return view(existing);
    await rowsOf(this.ds, `INSERT INTO webhook_secrets (account_id, secret, created_at) VALUES ($1, $2, $3::timestamptz) ON CONFLICT (account_id) DO NOTHING`, [accountId, generateWebhookSecret(), now]);
    const [row] = await rowsOf<SecretRow>(this.ds, `SELECT * FROM webhook_secrets WHERE account_id = $1`, [accountId]);
    if (!row) throw new Error("webhook secret was not stored");
    return view(row);
  }

  async rotate(accountId: string, now: Date): Promise<WebhookSecret> {
    const fresh = generateWebhookSecret();
    const until = new Date(now.getTime() + WEBHOOK_SECRET_OVERLAP_MS);
    // One statement: concurrent rotations serialise on the row, none is lost half-way.
    const [row] = await rowsOf<SecretRow>(this.ds,
      `INSERT INTO webhook_secrets (account_id, secret, created_at) VALUES ($1, $2, $3::timestamptz)
       ON CONFLICT (account_id) DO UPDATE SET previous_secret = webhook_secrets.secret, previous_expires_at = $4::timestamptz,
         secret = EXCLUDED.secret, created_at = EXCLUDED.created_at
       RETURNING *`,
      [accountId, fresh, now, until]);
    if (!row) throw new Error("webhook secret rotation returned no row");
    return view(row);
  }

  async signingSecrets(accountIds: readonly string[], now: Date): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    if (accountIds.length === 0) return out;
    const rows = await rowsOf<SecretRow>(this.ds, `SELECT * FROM webhook_secrets WHERE account_id = ANY($1::text[])`, [[...new Set(accountIds)]]);
    for (const r of rows) {
      const list = [r.secret];
      if (r.previous_secret && r.previous_expires_at && new Date(r.previous_expires_at).getTime() > now.getTime()) list.push(r.previous_secret);
      out.set(r.account_id, list);
    }
    return out;
  }
}
