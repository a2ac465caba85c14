import type { Plan } from "./account-repository.js";

/** A stored API key: only its SHA-256 is kept, never the key itself. */
export interface ApiKeyRecord {
  readonly id: string;
  readonly account_id: string;
  /** SHA-256 of the full key, lower-case hex. */
  readonly key_hash: string;
  /** The first characters of the key, for people to recognise it in a list. */
  readonly prefix: string;
  /** A label people give the key (`ci`, `laptop`); null when none was given. */
  readonly name: string | null;
  /** A plan for this key only; null means the account's plan. */
  readonly plan: Plan | null;
  readonly created_at: string;
  /** Set once revoked; a revoked key must be refused by whoever authenticates with it. */
  readonly revoked_at: string | null;
}

export interface NewApiKey {
  /** Assigned by the store (`key_…`) when absent. */
  readonly id?: string;
  readonly account_id: string;
  readonly key_hash: string;
  readonly prefix: string;
  readonly name?: string | null;
  readonly plan?: Plan | null;
}

export interface ApiKeyRepository {
  /** Rejects an unknown account and a key hash that already exists. */
  create(input: NewApiKey, now: Date): Promise<ApiKeyRecord>;
  /** The key with this hash, revoked ones included (with `revoked_at` set), or null. */
  findByHash(keyHash: string): Promise<ApiKeyRecord | null>;
  /** The account's keys, oldest first, revoked ones included. */
  list(accountId: string): Promise<readonly ApiKeyRecord[]>;
  /** True when the account's key was active and is now revoked; false if unknown, foreign or already revoked. */
  revoke(accountId: string, keyId: string, now: Date): Promise<boolean>;
}
