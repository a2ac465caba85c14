// Test-only module: the sliding-window rate limiter on a real database (PGlite and PostgreSQL).
import type { DataSource } from "typeorm";
import { describe, expect, it } from "vitest";
import type { RateLimiter } from "@svc/server-ports";
import { uniqueId } from "@svc/testing";
import { CoalescedRateLimiter } from "./coalesced.js";
import { InProcessRateLimiter } from "./repositories/in-process-rate-limiter.js";
import { TypeOrmRateLimiter } from "./repositories/typeorm-rate-limiter.js";

const at = (iso: string): Date => new Date(iso);

export function rateLimiterContract(engine: string, ds: () => DataSource): void {
  rateLimiterBehaviour(engine, () => new TypeOrmRateLimiter(ds()), () => new CoalescedRateLimiter(new TypeOrmRateLimiter(ds())));
  describe(`sliding-window rate limiter in the database: ${engine}`, () => {
    it("takeMany: takes on one key apply in call order; other keys are independent", async () => {
      const r = new TypeOrmRateLimiter(ds());
      const a = uniqueId("rk");
      const b = uniqueId("rk");
      const now = at("2026-11-01T10:00:30Z");
      const out = await r.takeMany([...Array.from({ length: 6 }, () => ({ key: a, now, cost: 1, limit: 4 })), { key: b, now, cost: 3, limit: 3 }, { key: b, now, cost: 1, limit: 3 }]);
      expect(out.map((o) => o.allowed)).toEqual([true, true, true, true, false, false, true, false]);
      expect(out.slice(0, 4).map((o) => o.used)).toEqual([1, 2, 3, 4]);
    });

    it("takeMany answers as the same takes one by one, on random batches: sums that fit, sums that do not, keys at their limit", async () => {
      const db = new TypeOrmRateLimiter(ds());
      const mem = new InProcessRateLimiter();
      const keys = [uniqueId("rk"), uniqueId("rk"), uniqueId("rk")];
      const limits = new Map(keys.map((k, i) => [k, 8 + 12 * i]));
      let seed = 777;
      const rand = (n: number): number => {
        seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
        return (seed >>> 16) % n;
      };
      let t = at("2026-11-01T11:00:00Z").getTime();
      /** Keys taken more than once in a batch, by what the takes one by one answered: all taken, some, none. */
      const seen = { all: 0, some: 0, none: 0, refused: 0 };
      for (let b = 0; b < 60; b++) {
        t += rand(2_500);
        const batch = Array.from({ length: 1 + rand(12) }, () => {
          const key = keys[rand(keys.length)] as string;
          // Now and then a take a second later than the rest of its batch, or with another limit.
          return { key, now: new Date(t + (rand(10) === 0 ? 1_000 : 0)), cost: rand(4), limit: (limits.get(key) as number) + (rand(15) === 0 ? 1 : 0) };
        });
        const many = await db.takeMany(batch);
        const one = [];
        for (const x of batch) one.push(await mem.take(x.key, x.now, x.cost, x.limit));
        expect(many, `batch #${b}: ${JSON.stringify(batch.map((x) => [keys.indexOf(x.key), x.cost, x.limit]))}`).toEqual(one);
        for (const k of keys) {
          const mine = one.filter((_, i) => batch[i]?.key === k);
          if (mine.length < 2) continue;
          const taken = mine.filter((x) => x.allowed).length;
          seen[taken === mine.length ? "all" : taken === 0 ? "none" : "some"]++;
        }
        seen.refused += one.filter((x) => !x.allowed).length;
      }
      // The sequence reached every case: a key's takes all taken at once, some, none.
      expect(seen.all).toBeGreaterThan(5);
      expect(seen.some).toBeGreaterThan(2);
      expect(seen.none).toBeGreaterThan(2);
      expect(await db.peek(keys[0] as string, new Date(t), 8)).toEqual(await mem.peek(keys[0] as string, new Date(t), 8));
    });

    it("answers exactly as the in-process limiter of the embedded default, on a random sequence of takes, refunds and looks", async () => {
      const db = new TypeOrmRateLimiter(ds());
      const mem = new InProcessRateLimiter();
      const keys = [uniqueId("rk"), uniqueId("rk"), uniqueId("rk")];
      let seed = 12345;
      const rand = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n);
      let t = at("2026-11-01T10:00:00Z").getTime();
      const taken: { key: string; at: Date }[] = [];
      for (let i = 0; i < 300; i++) {
        t += rand(4_000);
        const now = new Date(t);
        const key = keys[rand(keys.length)] as string;
        const op = rand(10);
        if (op < 7) {
          const cost = rand(4);
          const limit = 3 + rand(8);
          const [a, b] = [await db.take(key, now, cost, limit), await mem.take(key, now, cost, limit)];
          expect(b, `take #${i}`).toEqual(a);
          if (a.allowed && cost > 0) taken.push({ key, at: now });
        } else if (op < 9 && taken.length > 0) {
          const back = taken[rand(taken.length)] as { key: string; at: Date };
          const cost = 1 + rand(2);
          await db.refund(back.key, back.at, cost);
          await mem.refund(back.key, back.at, cost);
        } else {
          expect(await mem.peek(key, now, 5), `peek #${i}`).toEqual(await db.peek(key, now, 5));
        }
      }
    });
  });
}

/** What every sliding-window limiter answers (the database's, and the in-process one of the embedded default). */
export function rateLimiterBehaviour(name: string, make: () => RateLimiter, makeConcurrent: () => RateLimiter = make): void {
  describe(`sliding-window rate limiter: ${name}`, () => {
    it("takes up to the limit and refuses beyond it without taking; says when it fits again", async () => {
      const r = make();
      const key = uniqueId("rk");
      expect(await r.take(key, at("2026-11-01T10:00:10.200Z"), 2, 3)).toEqual({ allowed: true, used: 2, remaining: 1, resetMs: 60_800, retryAfterMs: 0 });
      expect(await r.take(key, at("2026-11-01T10:00:20.000Z"), 1, 3)).toMatchObject({ allowed: true, used: 3, remaining: 0, resetMs: 61_000 });
      // Two more need the 10:00:10 slot to leave: at 10:01:11.000.
      expect(await r.take(key, at("2026-11-01T10:00:30.000Z"), 2, 3)).toEqual({ allowed: false, used: 3, remaining: 0, resetMs: 51_000, retryAfterMs: 41_000 });
      expect(await r.peek(key, at("2026-11-01T10:00:30.000Z"), 3)).toMatchObject({ used: 3, remaining: 0 });
      expect((await r.take(key, at("2026-11-01T10:01:10.999Z"), 2, 3)).allowed).toBe(false);
      expect(await r.take(key, at("2026-11-01T10:01:11.000Z"), 2, 3)).toMatchObject({ allowed: true, used: 3, remaining: 0 });
      expect(await r.peek(uniqueId("rk"), at("2026-11-01T10:00:00Z"), 3)).toEqual({ allowed: true, used: 0, remaining: 3, resetMs: 0, retryAfterMs: 0 });
    });

    it("lets at most `limit` through in ANY 60-second span, across minute boundaries", async () => {
      const r = make();
      const key = uniqueId("rk");
      const limit = 10;
      const passed: number[] = [];
      // A request every 700 ms for three minutes, starting just before a minute boundary
      // (a fixed window lets 2 × limit through around 10:01:00).
      const start = at("2026-11-01T10:00:55.000Z").getTime();
      for (let t = start; t < start + 180_000; t += 700) {
        if ((await r.take(key, new Date(t), 1, limit)).allowed) passed.push(t);
      }
      for (let i = 0; i < passed.length; i++) {
        const inSpan = passed.filter((p) => p >= (passed[i] as number) && p < (passed[i] as number) + 60_000).length;
        expect(inSpan).toBeLessThanOrEqual(limit);
      }
      // ... and the limit is usable: about `limit` per minute gets through, not less.
      expect(passed.length).toBeGreaterThanOrEqual(limit * 3 - 3);
      expect(passed.filter((p) => p >= at("2026-11-01T10:00:55Z").getTime() && p < at("2026-11-01T10:01:05Z").getTime())).toHaveLength(limit);
    });

    it("refunds units taken at a moment, never below zero", async () => {
      const r = make();
      const key = uniqueId("rk");
      const t = at("2026-11-01T10:00:10Z");
      await r.take(key, t, 5, 5);
      await r.refund(key, t, 3);
      expect(await r.peek(key, t, 5)).toMatchObject({ used: 2, remaining: 3 });
      expect((await r.take(key, t, 3, 5)).allowed).toBe(true);
      await r.refund(key, t, 99);
      expect(await r.peek(key, t, 5)).toMatchObject({ used: 0, remaining: 5 });
      await r.refund(uniqueId("rk"), t, 1);
    });

    it("never lets 200 concurrent takes (coalesced or not) exceed the limit", async () => {
      const now = at("2026-11-01T10:00:30Z");
      for (const r of [make(), makeConcurrent()]) {
        const key = uniqueId("rk");
        const costs = Array.from({ length: 200 }, (_, i) => 1 + (i % 2));
        const out = await Promise.all(costs.map((cost, i) => r.take(key, new Date(now.getTime() + (i % 7)), cost, 30)));
        const taken = out.reduce((sum, o, i) => sum + (o.allowed ? (costs[i] as number) : 0), 0);
        const used = (await r.peek(key, now, 30)).used;
        expect(used).toBe(taken);
        expect(taken).toBeLessThanOrEqual(30);
        // Single-unit takes keep coming until the window is full.
        expect(taken).toBe(30);
      }
    });
  });
}
