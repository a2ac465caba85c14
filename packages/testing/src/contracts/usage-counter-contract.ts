import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { UsageCounter } from "@svc/server-ports";
import { uniqueId } from "../audit-builders.js";

const MINUTE = new Date("2026-11-01T10:15:00.000Z");
const NEXT_MINUTE = new Date("2026-11-01T10:16:00.000Z");
const MONTH = new Date("2026-11-01T00:00:00.000Z");

export function usageCounterContract(name: string, make: () => Promise<{ counter: UsageCounter; close(): Promise<void> }>): void {
  describe(`UsageCounter contract: ${name}`, () => {
    let f: { counter: UsageCounter; close(): Promise<void> };
    let key: string;
    beforeEach(async () => {
      f = await make();
      key = uniqueId("key");
    });
    afterEach(async () => {
      await f.close();
    });

    it("counts hits up to the limit and refuses the one beyond without counting it", async () => {
      expect(await f.counter.hit(key, "minute", MINUTE, 1, 3)).toEqual({ allowed: true, count: 1, remaining: 2 });
      expect(await f.counter.hit(key, "minute", MINUTE, 2, 3)).toEqual({ allowed: true, count: 3, remaining: 0 });
      expect(await f.counter.hit(key, "minute", MINUTE, 1, 3)).toEqual({ allowed: false, count: 3, remaining: 0 });
      expect(await f.counter.hit(key, "minute", MINUTE, 0, 3)).toEqual({ allowed: true, count: 3, remaining: 0 });
    });

    it("charges a batch its size, all or nothing", async () => {
      await f.counter.hit(key, "month", MONTH, 90, 100);
      expect(await f.counter.hit(key, "month", MONTH, 20, 100)).toEqual({ allowed: false, count: 90, remaining: 10 });
      expect(await f.counter.hit(key, "month", MONTH, 10, 100)).toEqual({ allowed: true, count: 100, remaining: 0 });
      expect(await f.counter.hit(uniqueId("key"), "month", MONTH, 101, 100)).toEqual({ allowed: false, count: 0, remaining: 100 });
    });

    it("keeps windows and keys apart", async () => {
      await f.counter.hit(key, "minute", MINUTE, 5, 5);
      expect((await f.counter.hit(key, "minute", NEXT_MINUTE, 1, 5)).count).toBe(1);
      expect((await f.counter.hit(key, "month", MONTH, 1, 5)).count).toBe(1);
      expect((await f.counter.hit(uniqueId("key"), "minute", MINUTE, 1, 5)).count).toBe(1);
    });

    it("refunds a charge, never below zero, and the refunded units can be charged again", async () => {
      await f.counter.hit(key, "month", MONTH, 5, 5);
      await f.counter.refund(key, "month", MONTH, 2);
      expect(await f.counter.hit(key, "month", MONTH, 0, 5)).toEqual({ allowed: true, count: 3, remaining: 2 });
      expect((await f.counter.hit(key, "month", MONTH, 2, 5)).allowed).toBe(true);
      await f.counter.refund(key, "month", MONTH, 50);
      expect((await f.counter.hit(key, "month", MONTH, 0, 5)).count).toBe(0);
      await f.counter.refund(uniqueId("key"), "month", MONTH, 1);
    });

    it("refuses a negative or fractional cost", async () => {
      await expect(f.counter.hit(key, "minute", MINUTE, -1, 5)).rejects.toThrow(RangeError);
      await expect(f.counter.hit(key, "minute", MINUTE, 1.5, 5)).rejects.toThrow(RangeError);
    });

    it("never lets 100 concurrent hits exceed the limit", async () => {
      const hits = await Promise.all(Array.from({ length: 100 }, () => f.counter.hit(key, "minute", MINUTE, 1, 30)));
      expect(hits.filter((h) => h.allowed)).toHaveLength(30);
      expect(Math.max(...hits.map((h) => h.count))).toBe(30);
      expect(new Set(hits.filter((h) => h.allowed).map((h) => h.count)).size).toBe(30);
      expect(await f.counter.hit(key, "minute", MINUTE, 0, 30)).toMatchObject({ count: 30 });
    });

    it("purges old windows of one kind", async () => {
      await f.counter.hit(key, "minute", MINUTE, 1, 5);
      await f.counter.hit(key, "minute", NEXT_MINUTE, 1, 5);
      await f.counter.hit(key, "month", MONTH, 1, 5);
      expect(await f.counter.purgeBefore("minute", NEXT_MINUTE)).toBeGreaterThanOrEqual(1);
      expect((await f.counter.hit(key, "minute", MINUTE, 0, 5)).count).toBe(0);
      expect((await f.counter.hit(key, "minute", NEXT_MINUTE, 0, 5)).count).toBe(1);
      expect((await f.counter.hit(key, "month", MONTH, 0, 5)).count).toBe(1);
    });
  });
}
