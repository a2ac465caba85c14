import { randomUUID } from "node:crypto";
import type { DataSource } from "typeorm";
import { IDEMPOTENCY_LEASE_MS, IDEMPOTENCY_TTL_MS } from "@svc/core";
import { type IdempotencyBegin, type IdempotencyStore, type StoredResponse } from "@svc/server-ports";
import { affectedOf } from "./sql.js";

export class TypeOrmIdempotencyStore implements IdempotencyStore {
  constructor(private readonly ds: DataSource, private readonly ttlMs: number = IDEMPOTENCY_TTL_MS, private readonly leaseMs: number = IDEMPOTENCY_LEASE_MS) {}

  async begin(accountId: string, key: string, requestHash: string, now: Date): Promise<IdempotencyBegin> {
    const lease = randomUUID();
    const leaseUntil = new Date(now.getTime() + this.leaseMs);
    // A key that was freed or taken between our statements is simply tried again on the next round.
    for (let attempt = 0; attempt < 3; attempt++) {
      // Claims the key when it is free or its record expired, in one statement, so two
      // replicas racing for one key cannot both get "new".
      const claimed = (await this.ds.manager.query(
        `INSERT INTO idempotency_keys (account_id, key, request_hash, status, body, created_at, expires_at, holder, lease_expires_at)
         VALUES ($1, $2, $3, NULL, NULL, $4, $5, $6, $7)
         ON CONFLICT (account_id, key) DO UPDATE
            SET request_hash = EXCLUDED.request_hash, status = NULL, body = NULL,
                created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at,
                holder = EXCLUDED.holder, lease_expires_at = EXCLUDED.lease_expires_at
          WHERE idempotency_keys.expires_at <= EXCLUDED.created_at
         RETURNING 1 AS claimed`,
        [accountId, key, requestHash, now, new Date(now.getTime() + this.ttlMs), lease, leaseUntil],
      )) as unknown[];
      if (claimed.length > 0) return { state: "new", lease, recovered: false };
      const [row] = (await this.ds.manager.query(
        `SELECT request_hash, status, body, holder, lease_expires_at, created_at FROM idempotency_keys WHERE account_id = $1 AND key = $2`,
        [accountId, key],
      )) as { request_hash: string; status: number | null; body: unknown; holder: string | null; lease_expires_at: Date | null; created_at: Date }[];
      if (!row) continue;
      if (row.request_hash !== requestHash) return { state: "mismatch" };
      if (row.status !== null) return { state: "done", response: { status: row.status, body: row.body } };
      // In flight, but its holder stopped renewing the lease (it died): take it over, only if
      // nobody else did first (the holder is compared), keeping the record's 24 h expiry.
      if (row.lease_expires_at === null || new Date(row.lease_expires_at).getTime() <= now.getTime()) {
        const taken = affectedOf(await this.ds.manager.query(
          `UPDATE idempotency_keys SET holder = $3, lease_expires_at = $4
            WHERE account_id = $1 AND key = $2 AND status IS NULL AND holder IS NOT DISTINCT FROM $5::text AND (lease_expires_at IS NULL OR lease_expires_at <= $6)`,
          [accountId, key, lease, leaseUntil, row.holder, now],
        ));
        if (taken > 0) return { state: "new", lease, recovered: true, claimed_at: new Date(row.created_at) };
        continue;
      }
      return { state: "in_flight" };
    }
    return { state: "in_flight" };
  }

  async renew(accountId: string, key: string, lease: string, now: Date): Promise<boolean> {
    return affectedOf(await this.ds.manager.query(
      `UPDATE idempotency_keys SET lease_expires_at = $4 WHERE account_id = $1 AND key = $2 AND holder = $3 AND status IS NULL`,
      [accountId, key, lease, new Date(now.getTime() + this.leaseMs)],
    )) > 0;
  }

  async complete(accountId: string, key: string, lease: string, response: StoredResponse): Promise<void> {
    await this.ds.manager.query(
      `UPDATE idempotency_keys SET status = $4, body = $5::jsonb, lease_expires_at = NULL WHERE account_id = $1 AND key = $2 AND holder = $3 AND status IS NULL`,
      [accountId, key, lease, response.status, JSON.stringify(response.body ?? null)],
    );
  }

  async abandon(accountId: string, key: string, lease: string): Promise<void> {
    await this.ds.manager.query(`DELETE FROM idempotency_keys WHERE account_id = $1 AND key = $2 AND holder = $3 AND status IS NULL`, [accountId, key, lease]);
  }

  async purgeExpired(now: Date): Promise<number> {
    return affectedOf(await this.ds.manager.query(`DELETE FROM idempotency_keys WHERE expires_at <= $1`, [now]));
  }
}
