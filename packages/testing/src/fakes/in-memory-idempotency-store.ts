import { IDEMPOTENCY_TTL_MS, type IdempotencyBegin, type IdempotencyStore, type StoredResponse } from "@svc/core";

interface Entry {
  request_hash: string;
  expires_at: number;
  response: StoredResponse | null;
}

export class InMemoryIdempotencyStore implements IdempotencyStore {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly ttlMs: number = IDEMPOTENCY_TTL_MS) {}

  async begin(accountId: string, key: string, requestHash: string, now: Date): Promise<IdempotencyBegin> {
    const id = keyOf(accountId, key);
    const e = this.entries.get(id);
    if (!e || e.expires_at <= now.getTime()) {
      this.entries.set(id, { request_hash: requestHash, expires_at: now.getTime() + this.ttlMs, response: null });
      return { state: "new" };
    }
    if (e.request_hash !== requestHash) return { state: "mismatch" };
    if (!e.response) return { state: "in_flight" };
    return { state: "done", response: structuredClone(e.response) };
  }

  async complete(accountId: string, key: string, response: StoredResponse): Promise<void> {
    const e = this.entries.get(keyOf(accountId, key));
    // JSON round trip: what a database would give back.
    if (e) e.response = { status: response.status, body: JSON.parse(JSON.stringify(response.body ?? null)) as unknown };
  }

  async abandon(accountId: string, key: string): Promise<void> {
    const id = keyOf(accountId, key);
    if (this.entries.get(id)?.response === null) this.entries.delete(id);
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
