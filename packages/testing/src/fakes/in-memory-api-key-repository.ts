import type { ApiKeyRecord, ApiKeyRepository, NewApiKey } from "@svc/server-ports";
import type { InMemoryAccountRepository } from "./in-memory-account-repository.js";

export class InMemoryApiKeyRepository implements ApiKeyRepository {
  private readonly keys: ApiKeyRecord[] = [];

  /** With `accounts`, keys for unknown accounts are refused, as the database's foreign key does. */
  constructor(private readonly accounts?: InMemoryAccountRepository) {}

  async create(input: NewApiKey, now: Date): Promise<ApiKeyRecord> {
    if (this.accounts && !this.accounts.has(input.account_id)) throw new Error(`unknown account ${input.account_id}`);
    if (this.keys.some((k) => k.key_hash === input.key_hash)) throw new Error("duplicate key hash");
    const id = input.id ?? `key_${crypto.randomUUID().replaceAll("-", "")}`;
    if (this.keys.some((k) => k.id === id)) throw new Error(`duplicate key id ${id}`);
    const key: ApiKeyRecord = {
      id, account_id: input.account_id, key_hash: input.key_hash, prefix: input.prefix, name: input.name ?? null,
      plan: input.plan ?? null, created_at: now.toISOString(), revoked_at: null,
    };
    this.keys.push(key);
    return { ...key };
  }

  async findByHash(keyHash: string): Promise<ApiKeyRecord | null> {
    const k = this.keys.find((x) => x.key_hash === keyHash);
    return k ? { ...k } : null;
  }

  async list(accountId: string): Promise<readonly ApiKeyRecord[]> {
    return this.keys
      .filter((k) => k.account_id === accountId)
      .sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .map((k) => ({ ...k }));
  }

  async revoke(accountId: string, keyId: string, now: Date): Promise<boolean> {
    const i = this.keys.findIndex((k) => k.id === keyId && k.account_id === accountId && k.revoked_at === null);
    const k = this.keys[i];
    if (!k) return false;
    this.keys[i] = { ...k, revoked_at: now.toISOString() };
    return true;
  }
}
