import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { IDEMPOTENCY_LEASE_MS } from "@svc/core";
import { type IdempotencyBegin, type IdempotencyStore } from "@svc/server-ports";
import { uniqueId } from "../audit-builders.js";

const T0 = new Date("2026-11-01T00:00:00.000Z");
const later = (ms: number): Date => new Date(T0.getTime() + ms);
const HOUR = 3_600_000;
const NEW = { state: "new", recovered: false };
const leaseOf = (b: IdempotencyBegin): string => {
  if (b.state !== "new") throw new Error(`expected to claim the key, got ${b.state}`);
  return b.lease;
};

export function idempotencyStoreContract(name: string, make: () => Promise<{ store: IdempotencyStore; close(): Promise<void> }>): void {
  describe(`IdempotencyStore contract: ${name}`, () => {
    let f: { store: IdempotencyStore; close(): Promise<void> };
    let account: string;
    let key: string;
    beforeEach(async () => {
      f = await make();
      account = uniqueId("acc");
      key = uniqueId("idem");
    });
    afterEach(async () => {
      await f.close();
    });

    it("claims a new key, then reports it in flight, then replays the response", async () => {
      const first = await f.store.begin(account, key, "h1", T0);
      expect(first).toMatchObject(NEW);
      expect(await f.store.begin(account, key, "h1", later(1000))).toEqual({ state: "in_flight" });
      const body = { id: "chk_1", risk_score: 92, signals: [{ code: "x", points: 45 }], nothing: null };
      await f.store.complete(account, key, leaseOf(first), { status: 200, body });
      expect(await f.store.begin(account, key, "h1", later(2000))).toEqual({ state: "done", response: { status: 200, body } });
    });

    it("refuses the same key with another request, in flight or done", async () => {
      const lease = leaseOf(await f.store.begin(account, key, "h1", T0));
      expect(await f.store.begin(account, key, "h2", T0)).toEqual({ state: "mismatch" });
      await f.store.complete(account, key, lease, { status: 202, body: { job_id: "job_1" } });
      expect(await f.store.begin(account, key, "h2", T0)).toEqual({ state: "mismatch" });
    });

    it("keeps keys per account", async () => {
      await f.store.begin(account, key, "h1", T0);
      expect(await f.store.begin(uniqueId("acc"), key, "h2", T0)).toMatchObject(NEW);
    });

    it("forgets a record 24 hours after it was made", async () => {
      await f.store.complete(account, key, leaseOf(await f.store.begin(account, key, "h1", T0)), { status: 200, body: "ok" });
      expect((await f.store.begin(account, key, "h2", later(24 * HOUR - 1))).state).toBe("mismatch");
      expect(await f.store.begin(account, key, "h2", later(24 * HOUR))).toMatchObject(NEW);
      expect(await f.store.begin(account, key, "h2", later(24 * HOUR + 1))).toEqual({ state: "in_flight" });
    });

    it("frees an abandoned key, but never a completed one", async () => {
      await f.store.abandon(account, key, leaseOf(await f.store.begin(account, key, "h1", T0)));
      const second = leaseOf(await f.store.begin(account, key, "h2", T0));
      await f.store.complete(account, key, second, { status: 201, body: [1, 2] });
      await f.store.abandon(account, key, second);
      expect(await f.store.begin(account, key, "h2", T0)).toEqual({ state: "done", response: { status: 201, body: [1, 2] } });
    });

    it("purges expired records", async () => {
      const old = uniqueId("idem");
      await f.store.begin(account, old, "h", T0);
      await f.store.begin(account, key, "h", later(23 * HOUR));
      expect(await f.store.purgeExpired(later(24 * HOUR))).toBeGreaterThanOrEqual(1);
      expect(await f.store.begin(account, old, "other", later(24 * HOUR))).toMatchObject(NEW);
      expect(await f.store.begin(account, key, "other", later(24 * HOUR))).toEqual({ state: "mismatch" });
    });

    it("lets the retry take over a key whose holder stopped renewing its lease, and fences the old holder out", async () => {
      const dead = leaseOf(await f.store.begin(account, key, "h1", T0));
      expect(await f.store.begin(account, key, "h1", later(IDEMPOTENCY_LEASE_MS - 1))).toEqual({ state: "in_flight" });
      expect(await f.store.begin(account, key, "h2", later(IDEMPOTENCY_LEASE_MS))).toEqual({ state: "mismatch" });
      const retry = await f.store.begin(account, key, "h1", later(IDEMPOTENCY_LEASE_MS));
      expect(retry).toMatchObject({ state: "new", recovered: true, claimed_at: T0 });
      expect(await f.store.begin(account, key, "h1", later(IDEMPOTENCY_LEASE_MS + 1))).toEqual({ state: "in_flight" });
      // The old holder, were it only slow, can no longer renew, answer or free the key.
      expect(await f.store.renew(account, key, dead, later(IDEMPOTENCY_LEASE_MS + 2))).toBe(false);
      await f.store.complete(account, key, dead, { status: 202, body: { job_id: "job_old" } });
      await f.store.abandon(account, key, dead);
      await f.store.complete(account, key, leaseOf(retry), { status: 202, body: { job_id: "job_1" } });
      expect(await f.store.begin(account, key, "h1", later(2 * IDEMPOTENCY_LEASE_MS))).toEqual({ state: "done", response: { status: 202, body: { job_id: "job_1" } } });
    });

    it("keeps a key whose holder renews its lease", async () => {
      const lease = leaseOf(await f.store.begin(account, key, "h1", T0));
      expect(await f.store.renew(account, key, lease, later(IDEMPOTENCY_LEASE_MS / 2))).toBe(true);
      expect(await f.store.begin(account, key, "h1", later(IDEMPOTENCY_LEASE_MS + 1))).toEqual({ state: "in_flight" });
      await f.store.complete(account, key, lease, { status: 200, body: 1 });
      expect(await f.store.renew(account, key, lease, later(IDEMPOTENCY_LEASE_MS + 2))).toBe(false);
    });

    it("lets exactly one of 20 concurrent retries take over a lapsed key", async () => {
      await f.store.begin(account, key, "h1", T0);
      const states = await Promise.all(Array.from({ length: 20 }, () => f.store.begin(account, key, "h1", later(IDEMPOTENCY_LEASE_MS))));
      expect(states.filter((s) => s.state === "new")).toHaveLength(1);
      expect(states.filter((s) => s.state === "in_flight")).toHaveLength(19);
    });

    it("lets exactly one of 20 concurrent requests claim a key", async () => {
      const states = await Promise.all(Array.from({ length: 20 }, () => f.store.begin(account, key, "h1", T0)));
      expect(states.filter((s) => s.state === "new")).toHaveLength(1);
      expect(states.filter((s) => s.state === "in_flight")).toHaveLength(19);
    });
  });
}
