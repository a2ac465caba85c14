import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { IdempotencyStore } from "@svc/core";
import { uniqueId } from "../audit-builders.js";

const T0 = new Date("2026-11-01T00:00:00.000Z");
const later = (ms: number): Date => new Date(T0.getTime() + ms);
const HOUR = 3_600_000;

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
      expect(await f.store.begin(account, key, "h1", T0)).toEqual({ state: "new" });
      expect(await f.store.begin(account, key, "h1", later(1000))).toEqual({ state: "in_flight" });
      const body = { id: "chk_1", risk_score: 92, signals: [{ code: "x", points: 45 }], nothing: null };
      await f.store.complete(account, key, { status: 200, body });
      expect(await f.store.begin(account, key, "h1", later(2000))).toEqual({ state: "done", response: { status: 200, body } });
    });

    it("refuses the same key with another request, in flight or done", async () => {
      await f.store.begin(account, key, "h1", T0);
      expect(await f.store.begin(account, key, "h2", T0)).toEqual({ state: "mismatch" });
      await f.store.complete(account, key, { status: 202, body: { job_id: "job_1" } });
      expect(await f.store.begin(account, key, "h2", T0)).toEqual({ state: "mismatch" });
    });

    it("keeps keys per account", async () => {
      await f.store.begin(account, key, "h1", T0);
      expect(await f.store.begin(uniqueId("acc"), key, "h2", T0)).toEqual({ state: "new" });
    });

    it("forgets a record 24 hours after it was made", async () => {
      await f.store.begin(account, key, "h1", T0);
      await f.store.complete(account, key, { status: 200, body: "ok" });
      expect((await f.store.begin(account, key, "h2", later(24 * HOUR - 1))).state).toBe("mismatch");
      expect(await f.store.begin(account, key, "h2", later(24 * HOUR))).toEqual({ state: "new" });
      expect(await f.store.begin(account, key, "h2", later(24 * HOUR + 1))).toEqual({ state: "in_flight" });
    });

    it("frees an abandoned key, but never a completed one", async () => {
      await f.store.begin(account, key, "h1", T0);
      await f.store.abandon(account, key);
      expect(await f.store.begin(account, key, "h2", T0)).toEqual({ state: "new" });
      await f.store.complete(account, key, { status: 201, body: [1, 2] });
      await f.store.abandon(account, key);
      expect(await f.store.begin(account, key, "h2", T0)).toEqual({ state: "done", response: { status: 201, body: [1, 2] } });
    });

    it("purges expired records", async () => {
      const old = uniqueId("idem");
      await f.store.begin(account, old, "h", T0);
      await f.store.begin(account, key, "h", later(23 * HOUR));
      expect(await f.store.purgeExpired(later(24 * HOUR))).toBeGreaterThanOrEqual(1);
      expect(await f.store.begin(account, old, "other", later(24 * HOUR))).toEqual({ state: "new" });
      expect(await f.store.begin(account, key, "other", later(24 * HOUR))).toEqual({ state: "mismatch" });
    });

    it("lets exactly one of 20 concurrent requests claim a key", async () => {
      const states = await Promise.all(Array.from({ length: 20 }, () => f.store.begin(account, key, "h1", T0)));
      expect(states.filter((s) => s.state === "new")).toHaveLength(1);
      expect(states.filter((s) => s.state === "in_flight")).toHaveLength(19);
    });
  });
}
