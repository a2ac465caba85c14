import type { Clock } from "@svc/core";
import type { Account, AccountRepository, ApiKeyRecord, ApiKeyRepository } from "@svc/server-ports";

/** A small time-bounded, size-bounded cache; only found values are kept. */
class TtlCache<V> {
  private readonly entries = new Map<string, { at: number; value: V }>();
  constructor(private readonly clock: Clock, private readonly ttlMs: number, private readonly max: number) {}

  async get(key: string, load: () => Promise<V | null>): Promise<V | null> {
    const now = this.clock.now().getTime();
    const hit = this.entries.get(key);
    if (hit && now - hit.at < this.ttlMs) return hit.value;
    const value = await load();
    // Misses are not cached: a key created a moment ago on another replica must work at once.
    if (value !== null) {
      if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value as string);
      this.entries.set(key, { at: now, value });
    }
    return value;
  }

  deleteWhere(pred: (value: V) => boolean): void {
    for (const [k, e] of this.entries) if (pred(e.value)) this.entries.delete(k);
  }
}

const TTL_MS = 5_000;
const MAX_ENTRIES = 10_000;

/**
 * Keys and accounts are read on every request but change rarely: cache them for a few seconds.
 * Revoking through this process takes effect at once; a revocation made by another replica takes
 * effect here within 5 s (docs/decisions/0005-auth-cache.md).
 */
export class CachedKeys implements ApiKeyRepository {
  private readonly cache: TtlCache<ApiKeyRecord>;
  constructor(private readonly inner: ApiKeyRepository, clock: Clock) {
    this.cache = new TtlCache(clock, TTL_MS, MAX_ENTRIES);
  }
  findByHash = (keyHash: string) => this.cache.get(keyHash, () => this.inner.findByHash(keyHash));
  create: ApiKeyRepository["create"] = (input, now) => this.inner.create(input, now);
  list: ApiKeyRepository["list"] = (accountId) => this.inner.list(accountId);
  /** Forgets every cached key of an account (its plan changed). */
  forgetAccount(accountId: string): void {
    this.cache.deleteWhere((k) => k.account_id === accountId);
  }
  async revoke(accountId: string, keyId: string, now: Date): Promise<boolean> {
    const done = await this.inner.revoke(accountId, keyId, now);
    this.cache.deleteWhere((k) => k.id === keyId);
    return done;
  }
}

export class CachedAccounts implements AccountRepository {
  private readonly cache: TtlCache<Account>;
  constructor(private readonly inner: AccountRepository, clock: Clock) {
    this.cache = new TtlCache(clock, TTL_MS, MAX_ENTRIES);
  }
  get = (id: string) => this.cache.get(id, () => this.inner.get(id));
  /** Forgets a cached account (its plan changed). */
  forget(id: string): void {
    this.cache.deleteWhere((a) => a.id === id);
  }
  create: AccountRepository["create"] = (input, now) => this.inner.create(input, now);
}
