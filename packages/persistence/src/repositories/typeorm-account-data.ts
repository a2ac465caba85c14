import { createHmac } from "node:crypto";
import type { DataSource, EntityManager } from "typeorm";
import { iso, isoOrNull, newId, rowsOf } from "./sql.js";

export interface DeletionRequest {
  readonly id: string;
  readonly requested_at: string;
  readonly purge_after: string;
  readonly completed_at: string | null;
}

/**
 * Account deletion: the request (`account_deletions`) and the purge the worker runs. The purge
 * deletes every row that belongs to the account and keeps, anonymised, only what is evidence
 * about others or accounting (docs/privacy.md lists both):
 *  - reports and reporter trust: the reporter becomes `anon:<keyed hash>`; the check they cited is dropped;
 *  - the ledger of entitlements: `account_ref` = the same keyed hash, the account id removed;
 *  - the request row itself: its id and dates, with no account id.
 * The keyed hash (HMAC-SHA-256 under the server secret `insights`) lets insights count distinct
 * reporters without naming one; once the account is gone nothing links the hash to a person.
 */
export class TypeOrmAccountDeletions {
  constructor(private readonly ds: DataSource) {}

  /** A request for the account (the one already open when there is one). */
  async request(accountId: string, now: Date, purgeAfter: Date): Promise<{ request: DeletionRequest; created: boolean }> {
    const rows = (await rowsOf<DelRow>(this.ds,
      `INSERT INTO account_deletions (id, account_id, requested_at, purge_after) VALUES ($1, $2, $3::timestamptz, $4::timestamptz)
       ON CONFLICT (account_id) DO NOTHING RETURNING *`,
      [newId("del"), accountId, now, purgeAfter]
    ));
    if (rows[0]) return { request: toRequest(rows[0]), created: true };
    const [r] = (await rowsOf<DelRow>(this.ds,`SELECT * FROM account_deletions WHERE account_id = $1`, [accountId]));
    if (!r) throw new Error("deletion request vanished");
    return { request: toRequest(r), created: false };
  }

  /** Ends every dashboard session of the account's users (they would otherwise mint a new dashboard key). */
  async endSessions(accountId: string, now: Date): Promise<void> {
    await this.ds.query(
      `UPDATE web_sessions SET revoked_at = $2 WHERE revoked_at IS NULL AND user_id IN (SELECT id FROM web_users WHERE account_id = $1)`,
      [accountId, now],
    );
  }

  async forAccount(accountId: string): Promise<DeletionRequest | null> {
    const [r] = (await rowsOf<DelRow>(this.ds,`SELECT * FROM account_deletions WHERE account_id = $1`, [accountId]));
    return r ? toRequest(r) : null;
  }

  /**
   * Purges the account of request `id` in one transaction; false when there was nothing to do
   * (already purged: the job may run twice). `insightsKey` keys the anonymous reporter hash.
   */
  async purge(id: string, insightsKey: string, now: Date): Promise<boolean> {
    return this.ds.transaction(async (m) => {
      const [req] = (await rowsOf<{ account_id: string | null }>(m,`SELECT account_id FROM account_deletions WHERE id = $1 AND completed_at IS NULL FOR UPDATE`, [id]));
      if (!req?.account_id) return false;
      await purgeAccount(m, req.account_id, insightsKey);
      await m.query(`UPDATE account_deletions SET account_id = NULL, completed_at = $2::timestamptz WHERE id = $1`, [id, now]);
      return true;
    });
  }
}

/**
 * The only tables that keep a row about a deleted account, each anonymised (docs/privacy.md):
 * the account is named there by `anonymousRef` at most, never by its id.
 */
export const KEPT_ANONYMISED = {
  reports: "reporter_id = the keyed hash; the cited check removed",
  reporters: "id = the keyed hash (operator-set trust)",
  entitlements: "account_ref = the keyed hash; account_id removed",
  account_deletions: "the request's id and dates; account_id removed",
} as const;

/** The anonymous reference kept where an account's contribution stays (reports, ledger). */
export const anonymousRef = (insightsKey: string, accountId: string): string => `anon:${createHmac("sha256", insightsKey).update(`account:${accountId}`).digest("hex").slice(0, 32)}`;

async function purgeAccount(m: EntityManager, accountId: string, insightsKey: string): Promise<void> {
  const keys = (await rowsOf<{ id: string; key_hash: string }>(m,`SELECT id, key_hash FROM api_keys WHERE account_id = $1`, [accountId]));
  const anon = anonymousRef(insightsKey, accountId);
  const reporter = `account:${accountId}`;
  // Chats bound with the account's keys go back to the free plan, unbound.
  await m.query(
    `UPDATE bot_chat_settings SET plan_tier = 'free', plan_source = 'none', plan_key_hash = NULL, plan_bound_by = NULL, plan_until = NULL, updated_at = now()
      WHERE plan_source = 'api_key' AND plan_key_hash = ANY($1::text[])`,
    [keys.map((k) => k.key_hash)],
  );
  const counters = keys.map((k) => `key:${k.id}`);
  await m.query(`DELETE FROM usage_counters WHERE key = ANY($1::text[])`, [counters]);
  await m.query(`DELETE FROM rate_windows WHERE key = ANY($1::text[])`, [counters]);
  // Reports stay (evidence about others), their reporter anonymised.
  await m.query(`UPDATE reports SET reporter_id = $2, check_id = NULL WHERE reporter_id = $1`, [reporter, anon]);
  await m.query(`UPDATE reporters SET id = $2 WHERE id = $1`, [reporter, anon]);
  await m.query(`UPDATE entitlements SET account_ref = $2, account_id = NULL WHERE account_id = $1`, [accountId, anon]);
  // Asynchronous checks: their queued messages, webhooks and attempts.
  await m.query(`DELETE FROM job_queue WHERE data->>'job_id' IN (SELECT id FROM async_jobs WHERE account_id = $1)`, [accountId]);
  await m.query(`DELETE FROM webhook_attempts WHERE message_id IN (SELECT id FROM webhook_messages WHERE account_id = $1)`, [accountId]);
  for (const t of ["webhook_messages", "webhook_endpoints", "webhook_secrets", "async_jobs", "idempotency_keys", "graph_node_risks", "check_chain_heads", "checks"]) {
    await m.query(`DELETE FROM "${t}" WHERE account_id = $1`, [accountId]);
  }
  // Edges learned from the account's own checks (shared evidence has scope '').
  await m.query(`DELETE FROM graph_edges WHERE scope = $1`, [accountId]);
  // Keys, the Stripe customer link and human reviews go with the account (ON DELETE CASCADE).
  await m.query(`DELETE FROM accounts WHERE id = $1`, [accountId]);
}

interface DelRow { id: string; account_id: string | null; requested_at: Date; purge_after: Date; completed_at: Date | null }
const toRequest = (r: DelRow): DeletionRequest => ({ id: r.id, requested_at: iso(r.requested_at), purge_after: iso(r.purge_after), completed_at: isoOrNull(r.completed_at) });

export type ReviewOutcome = "upheld" | "changed" | "dismissed";

export interface CheckReview {
  readonly id: string;
  readonly account_id: string;
  readonly check_id: string;
  readonly reason: string;
  readonly status: "pending" | "resolved";
  readonly outcome: ReviewOutcome | null;
  readonly note: string | null;
  readonly created_at: string;
  readonly resolved_at: string | null;
}

/** Human review of a check: the requester's request, the operator's queue and outcome. */
export class TypeOrmCheckReviews {
  constructor(private readonly ds: DataSource) {}

  /** One review per check: asking again answers the existing one. */
  async request(accountId: string, checkId: string, reason: string, now: Date): Promise<{ review: CheckReview; created: boolean }> {
    const rows = (await rowsOf<ReviewRow>(this.ds,
      `INSERT INTO check_reviews (id, account_id, check_id, reason, created_at) VALUES ($1, $2, $3, $4, $5::timestamptz)
       ON CONFLICT (account_id, check_id) DO NOTHING RETURNING *`,
      [newId("rev"), accountId, checkId, reason, now]
    ));
    if (rows[0]) return { review: toReview(rows[0]), created: true };
    const found = await this.forCheck(accountId, checkId);
    if (!found) throw new Error("review vanished");
    return { review: found, created: false };
  }

  async forCheck(accountId: string, checkId: string): Promise<CheckReview | null> {
    const [r] = (await rowsOf<ReviewRow>(this.ds,`SELECT * FROM check_reviews WHERE account_id = $1 AND check_id = $2`, [accountId, checkId]));
    return r ? toReview(r) : null;
  }

  /** The operator's queue: oldest first, keyset-paged on (created_at, id). */
  async queue(status: "pending" | "resolved", limit: number, after: { created_at: string; id: string } | null): Promise<CheckReview[]> {
    const rows = (await rowsOf<ReviewRow>(this.ds,
      `SELECT * FROM check_reviews WHERE status = $1 AND ($3::timestamptz IS NULL OR (created_at, id) > ($3::timestamptz, $4::text))
        ORDER BY created_at, id LIMIT $2`,
      [status, limit, after?.created_at ?? null, after?.id ?? null]
    ));
    return rows.map(toReview);
  }

  async get(id: string): Promise<CheckReview | null> {
    const [r] = (await rowsOf<ReviewRow>(this.ds,`SELECT * FROM check_reviews WHERE id = $1`, [id]));
    return r ? toReview(r) : null;
  }

  /** Resolves a pending review; null when there is no such review. The same outcome again is a no-op. */
  async resolve(id: string, outcome: ReviewOutcome, note: string | null, now: Date): Promise<CheckReview | null> {
    const rows = (await rowsOf<ReviewRow>(this.ds,
      `UPDATE check_reviews SET status = 'resolved', outcome = $2, note = $3, resolved_at = COALESCE(CASE WHEN outcome = $2 THEN resolved_at END, $4::timestamptz)
        WHERE id = $1 RETURNING *`,
      [id, outcome, note, now]
    ));
    return rows[0] ? toReview(rows[0]) : null;
  }
}

interface ReviewRow {
  id: string; account_id: string; check_id: string; reason: string; status: "pending" | "resolved"; outcome: ReviewOutcome | null;
  note: string | null; created_at: Date; resolved_at: Date | null;
}
const toReview = (r: ReviewRow): CheckReview => ({
  id: r.id, account_id: r.account_id, check_id: r.check_id, reason: r.reason, status: r.status, outcome: r.outcome, note: r.note,
  created_at: iso(r.created_at), resolved_at: isoOrNull(r.resolved_at),
});
