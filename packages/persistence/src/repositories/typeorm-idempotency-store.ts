import type { DataSource } from "typeorm";
import { IDEMPOTENCY_TTL_MS, type IdempotencyBegin, type IdempotencyStore, type StoredResponse } from "@svc/core";
import { affectedOf } from "./sql.js";

export class TypeOrmIdempotencyStore implements IdempotencyStore {
  constructor(private readonly ds: DataSource, private readonly ttlMs: number = IDEMPOTENCY_TTL_MS) {}

  async begin(accountId: string, key: string, requestHash: string, now: Date): Promise<IdempotencyBegin> {
    // A key that was freed between our two statements is simply claimed on the next round.
    for (let attempt = 0; attempt < 3; attempt++) {
      // Claims the key when it is free or its record expired, in one statement, so two
      // replicas racing for one key cannot both get "new".
      const claimed = (await this.ds.manager.query(
        `INSERT INTO idempotency_keys (account_id, key, request_hash, status, body, created_at, expires_at)
         VALUES ($1, $2, $3, NULL, NULL, $4, $5)
         ON CONFLICT (account_id, key) DO UPDATE
            SET request_hash = EXCLUDED.request_hash, status = NULL, body = NULL,
                created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
          WHERE idempotency_keys.expires_at <= EXCLUDED.created_at
         RETURNING 1 AS claimed`,
        [accountId, key, requestHash, now, new Date(now.getTime() + this.ttlMs)],
      )) as unknown[];
      if (claimed.length > 0) return { state: "new" };
      const [row] = (await this.ds.manager.query(
        `SELECT request_hash, status, body FROM idempotency_keys WHERE account_id = $1 AND key = $2`,
        [accountId, key],
      )) as { request_hash: string; status: number | null; body: unknown }[];
      if (!row) continue;
      if (row.request_hash !== requestHash) return { state: "mismatch" };
      if (row.status === null) return { state: "in_flight" };
      return { state: "done", response: { status: row.status, body: row.body } };
    }
    return { state: "in_flight" };
  }

  async complete(accountId: string, key: string, response: StoredResponse): Promise<void> {
    await this.ds.manager.query(
      `UPDATE idempotency_keys SET status = $3, body = $4::jsonb WHERE account_id = $1 AND key = $2`,
      [accountId, key, response.status, JSON.stringify(response.body ?? null)],
    );
  }

  async abandon(accountId: string, key: string): Promise<void> {
    await this.ds.manager.query(`DELETE FROM idempotency_keys WHERE account_id = $1 AND key = $2 AND status IS NULL`, [accountId, key]);
  }

  async purgeExpired(now: Date): Promise<number> {
    return affectedOf(await this.ds.manager.query(`DELETE FROM idempotency_keys WHERE expires_at <= $1`, [now]));
  }
}
