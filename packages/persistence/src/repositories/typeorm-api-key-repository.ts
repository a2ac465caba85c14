import type { DataSource } from "typeorm";
import type { ApiKeyRecord, ApiKeyRepository, NewApiKey } from "@svc/server-ports";
import { ApiKeyEntity, type ApiKeyRow } from "../entities/account.js";
import { rawQuery } from "./raw-sql.js";
import { iso, isoOrNull, newId } from "./sql.js";

const BY_HASH_SQL = `SELECT id, account_id, key_hash, prefix, name, plan, created_at, revoked_at FROM api_keys WHERE key_hash = $1`;

export class TypeOrmApiKeyRepository implements ApiKeyRepository {
  private readonly raw: ReturnType<typeof rawQuery>;

  constructor(private readonly ds: DataSource) {
    this.raw = rawQuery(ds);
  }

  async create(input: NewApiKey, now: Date): Promise<ApiKeyRecord> {
    const row: ApiKeyRow = {
      id: input.id ?? newId("key"),
      account_id: input.account_id,
      key_hash: input.key_hash,
      prefix: input.prefix,
      name: input.name ?? null,
      plan: input.plan ?? null,
      created_at: now,
      revoked_at: null,
    };
    await this.ds.getRepository(ApiKeyEntity).insert(row);
    return toApiKey(row);
  }

  /** Every request's key (when the API's cache does not have it): a prepared statement on a raw session, not TypeORM. */
  async findByHash(keyHash: string): Promise<ApiKeyRecord | null> {
    const [row] = await this.raw<ApiKeyRow>("svc_api_key_by_hash", BY_HASH_SQL, [keyHash]);
    return row ? toApiKey(row) : null;
  }

  async list(accountId: string): Promise<readonly ApiKeyRecord[]> {
    const rows = await this.ds.getRepository(ApiKeyEntity).find({ where: { account_id: accountId }, order: { created_at: "ASC", id: "ASC" } });
    return rows.map(toApiKey);
  }

  async revoke(accountId: string, keyId: string, now: Date): Promise<boolean> {
    const r = await this.ds
      .createQueryBuilder()
      .update(ApiKeyEntity)
      .set({ revoked_at: now })
      .where("id = :keyId AND account_id = :accountId AND revoked_at IS NULL", { keyId, accountId })
      .execute();
    return (r.affected ?? 0) > 0;
  }
}

const toApiKey = (r: ApiKeyRow): ApiKeyRecord => ({
  id: r.id,
  account_id: r.account_id,
  key_hash: r.key_hash,
  prefix: r.prefix,
  name: r.name,
  plan: r.plan,
  created_at: iso(r.created_at),
  revoked_at: isoOrNull(r.revoked_at),
});
