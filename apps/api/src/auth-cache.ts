import type { Account, AccountRepository, ApiKeyRecord, ApiKeyRepository, Clock } from "@svc/core";

/**
 * Keys and accounts are read on every request but change rarely: cache them for a few seconds.
 * Revoking through this process takes effect at once; a revocation made by another replica takes
 * effect here within `ttlMs` (documented in docs/decisions/0005-auth-cache.md).
 */
export class CachedKeys implements ApiKeyRepository {
  private readonly byHash = new Map<string, { at: number; record: ApiKeyRecord | null }>();
  constructor(private readonly inner: ApiKeyRepository, private readonly clock: Clock, private readonly ttlMs = 5_000, private readonly max = 10_000) {}

  async findByHash(keyHash: string): Promise<ApiKeyRecord | null> {
    const now = this.clock.now().getTime();
    const hit = this.byHash.get(keyHash);
    if (hit && now - hit.at < this.ttlMs) return hit.record;
    const record = await this.inner.findByHash(keyHash);
    // Unknown keys are not cached: a key created a moment ago elsewhere must work at once.
    if (record) {
      if (this.byHash.size >= this.max) this.byHash.delete(this.byHash.keys().next().value as string);
      this.byHash.set(keyHash, { at: now, record });
    }
    return record;
  }
  create: ApiKeyRepository["create"] = (input, now) => this.inner.create(input, now);
  list: ApiKeyRepository["list"] = (accountId) => this.inner.list(accountId);
  async revoke(accountId: string, keyId: string, now: Date): Promise<boolean> {
    const done = await this.inner.revoke(accountId, keyId, now);
    for (const [hash, entry] of this.byHash) if (entry.record?.id === keyId) this.byHash.delete(hash);
    return done;
  }
}

export class CachedAccounts implements AccountRepository {
  private readonly byId = new Map<string, { at: number; account: Account }>();
  constructor(private readonly inner: AccountRepository, private readonly clock: Clock, private readonly ttlMs = 5_000, private readonly max = 10_000) {}

  async get(id: string): Promise<Account | null> {
    const now = this.clock.now().getTime();
    const hit = this.byId.get(id);
    if (hit && now - hit.at < this.ttlMs) return hit.account;
    const account = await this.inner.get(id);
    if (account) {
      if (this.byId.size >= this.max) this.byId.delete(this.byId.keys().next().value as string);
      this.byId.set(id, { at: now, account });
    }
    return account;
  }
  create: AccountRepository["create"] = (input, now) => this.inner.create(input, now);
}
