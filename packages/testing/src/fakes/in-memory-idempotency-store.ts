import { randomUUID } from "node:crypto";
import { IDEMPOTENCY_LEASE_MS, IDEMPOTENCY_TTL_MS } from "@svc/core";
import { type IdempotencyBegin, type IdempotencyStore, type StoredResponse } from "@svc/server-ports";

interface Entry {
  request_hash: string;
  created_at: number;
  expires_at: number;
  holder: string | null;
  lease_expires_at: number;
  response: StoredResponse | null;
}

export class InMemoryIdempotencyStore implements IdempotencyStore {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly ttlMs: number = IDEMPOTENCY_TTL_MS, private readonly leaseMs: number = IDEMPOTENCY_LEASE_MS) {}

  async begin(accountId: string, key: string, requestHash: string, now: Date): Promise<IdempotencyBegin> {
    const id = keyOf(accountId, key);
    const e = this.entries.get(id);
    const lease = randomUUID();
    const t = now.getTime();
    if (!e || e.expires_at <= t) {
      this.entries.set(id, { request_hash: requestHash, created_at: t, expires_at: t + this.ttlMs, holder: lease, lease_expires_at: t + this.leaseMs, response: null });
      return { state: "new", lease, recovered: false };
    }
    if (e.request_hash !== requestHash) return { state: "mismatch" };
    if (e.response) return { state: "done", response: structuredClone(e.response) };
    if (e.lease_expires_at <= t) {
      e.holder = lease;
      e.lease_expires_at = t + this.leaseMs;
      return { state: "new", lease, recovered: true, claimed_at: new Date(e.created_at) };
    }
    return { state: "in_flight" };
  }

  async renew(accountId: string, key: string, lease: string, now: Date): Promise<boolean> {
    const e = this.held(accountId, key, lease);
    if (e) e.lease_expires_at = now.getTime() + this.leaseMs;
    return e !== null;
  }

  async complete(accountId: string, key: string, lease: string, response: StoredResponse): Promise<void> {
    const e = this.held(accountId, key, lease);
    // JSON round trip: what a database would give back.
    if (e) e.response = { status: response.status, body: JSON.parse(JSON.stringify(response.body ?? null)) as unknown };
  }

  async abandon(accountId: string, key: string, lease: string): Promise<void> {
    if (this.held(accountId, key, lease)) this.entries.delete(keyOf(accountId, key));
  }

  private held(accountId: string, key: string, lease: string): Entry | null {
    const e = this.entries.get(keyOf(accountId, key));
    return e && e.holder === lease && e.response === null ? e : null;
  }

  async purgeExpired(now: Date): Promise<number> {
    let n = 0;
    for (const [id, e] of this.entries) {
      if (e.expires_at <= now.getTime()) {
        this.entries.delete(id);
        n++;
      }
    }
    return n;
  }
}

const keyOf = (accountId: string, key: string): string => `${accountId}\u0000${key}`;
