// Test-only module: the many-at-once methods the API coalesces concurrent checks into must give
// exactly what the one-at-a-time methods give.
import type { DataSource } from "typeorm";
import { describe, expect, it } from "vitest";
import { parseEntity, type Entity } from "@svc/core";
import { InMemoryGraphRepository, uniqueId, usageCounterContract } from "@svc/testing";
import { TypeOrmGraphRepository } from "./repositories/typeorm-graph-repository.js";
import { TypeOrmIntelStore } from "./repositories/typeorm-intel-store.js";
import { TypeOrmReportRepository } from "./repositories/typeorm-report-repository.js";
import { TypeOrmUsageCounter, type UsageRequest } from "./repositories/typeorm-usage-counter.js";
import { sqlGraphFixture } from "./contract-suites.js";

const entity = (v: string): Entity => {
  const p = parseEntity(v);
  if (!p.ok) throw new Error(`unparsable ${v}`);
  return p.entity;
};

export function batchedReadsContract(engine: string, ds: () => DataSource): void {
  const close = async (): Promise<void> => {};
  // The whole usage contract again, through hitMany with one hit per call.
  usageCounterContract(`${engine} (hitMany)`, async () => {
    const inner = new TypeOrmUsageCounter(ds());
    return {
      counter: { hit: async (key, window, windowStart, cost, limit) => (await inner.hitMany([{ key, window, windowStart, cost, limit }]))[0]!, refund: (k, w, s, c) => inner.refund(k, w, s, c), purgeBefore: (w, b) => inner.purgeBefore(w, b) },
      close,
    };
  });

  describe(`batched reads and writes: ${engine}`, () => {
    it("hitMany: hits on one counter apply in call order up to the limit; other counters are independent", async () => {
      const counter = new TypeOrmUsageCounter(ds());
      const a = uniqueId("key:a");
      const b = uniqueId("key:b");
      const start = new Date("2026-11-24T03:00:00.000Z");
      const hits: UsageRequest[] = [];
      for (let i = 0; i < 40; i++) hits.push({ key: a, window: "minute", windowStart: start, cost: 1, limit: 30 });
      hits.splice(5, 0, { key: b, window: "minute", windowStart: start, cost: 3, limit: 5 }, { key: b, window: "minute", windowStart: start, cost: 3, limit: 5 });
      hits.push({ key: b, window: "month", windowStart: start, cost: 9, limit: 5 });
      const out = await counter.hitMany(hits);
      const forA = out.filter((_, i) => hits[i]!.key === a);
      expect(forA.filter((h) => h.allowed)).toHaveLength(30);
      expect(forA.slice(0, 30).map((h) => h.count)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
      expect(forA.slice(30).every((h) => !h.allowed && h.count === 30 && h.remaining === 0)).toBe(true);
      expect(out[5]).toEqual({ allowed: true, count: 3, remaining: 2 });
      expect(out[6]).toEqual({ allowed: false, count: 3, remaining: 2 });
      expect(out.at(-1)).toEqual({ allowed: false, count: 0, remaining: 5 });
      // What the batch stored is what single hits see afterwards.
      expect(await counter.hit(a, "minute", start, 0, 30)).toEqual({ allowed: true, count: 30, remaining: 0 });
    });

    it("hitMany answers as the same hits one by one, on random batches: sums that fit, sums that do not, counters at their limit", async () => {
      const counter = new TypeOrmUsageCounter(ds());
      const keys = [uniqueId("key:r"), uniqueId("key:s")];
      const start = new Date("2026-11-24T04:00:00.000Z");
      const counts = new Map<string, number>();
      let seed = 4242;
      const rand = (n: number): number => {
        seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
        return (seed >>> 16) % n;
      };
      /** Counters hit more than once in a batch, by what the hits one by one answered: all counted, some, none. */
      const seen = { all: 0, some: 0, none: 0, otherLimit: 0 };
      for (let b = 0; b < 40; b++) {
        const hits = Array.from({ length: 1 + rand(10) }, (): UsageRequest => {
          const key = keys[rand(keys.length)] as string;
          return { key, window: rand(6) === 0 ? "minute" : "month", windowStart: start, cost: rand(5), limit: key === keys[0] ? 60 : 150 + (rand(12) === 0 ? 1 : 0) };
        });
        const expected = hits.map((h) => {
          const k = `${h.key} ${h.window}`;
          const count = counts.get(k) ?? 0;
          if (count + h.cost > h.limit) return { allowed: false, count, remaining: Math.max(0, h.limit - count) };
          counts.set(k, count + h.cost);
          return { allowed: true, count: count + h.cost, remaining: Math.max(0, h.limit - count - h.cost) };
        });
        expect(await counter.hitMany(hits), `batch #${b}`).toEqual(expected);
        for (const k of new Set(hits.map((h) => `${h.key} ${h.window}`))) {
          const mine = expected.filter((_, i) => `${hits[i]?.key} ${hits[i]?.window}` === k);
          if (mine.length < 2) continue;
          const counted = mine.filter((e) => e.allowed).length;
          seen[counted === mine.length ? "all" : counted === 0 ? "none" : "some"]++;
        }
        if (hits.some((h) => h.limit === 151)) seen.otherLimit++;
      }
      // The sequence reached every case: a counter's hits all counted at once, some, none, and a batch with two limits for one counter.
      expect(seen.all).toBeGreaterThan(5);
      expect(seen.some).toBeGreaterThan(2);
      expect(seen.none).toBeGreaterThan(2);
      expect(seen.otherLimit).toBeGreaterThan(0);
    });

    it("hitMany: concurrent batches on the same counters never exceed the limit", async () => {
      const counter = new TypeOrmUsageCounter(ds());
      const keys = [uniqueId("key:c"), uniqueId("key:d")];
      const start = new Date("2026-11-24T03:01:00.000Z");
      const batches = Array.from({ length: 6 }, (_, j) => Array.from({ length: 10 }, (_, i): UsageRequest => ({ key: keys[(i + j) % 2]!, window: "minute", windowStart: start, cost: 1, limit: 25 })));
      const out = (await Promise.all(batches.map((b) => counter.hitMany(b)))).flat();
      expect(out.filter((h) => h.allowed)).toHaveLength(50);
      for (const k of keys) expect((await counter.hit(k, "minute", start, 0, 25)).count).toBe(25);
    });

    it("lookupMany gives each entity what lookup gives it, in order", async () => {
      const store = new TypeOrmIntelStore(ds());
      const base = `${uniqueId("bad").toLowerCase().replaceAll("_", "-")}.com`;
      await store.upsert([
        { type: "domain", value: base, list: "block", label: "phishing", source: "batch-test" },
        { type: "email", value: `x@${base}`, list: "block", label: "scam sender", source: "batch-test" },
      ]);
      const entities = [entity(`login.${base}`), entity("clean-batch-test.com"), entity(`x@${base}`), entity(base), entity(`https://a.login.${base}/p`)];
      const many = await store.lookupMany(entities);
      const one = await Promise.all(entities.map((e) => store.lookup(e)));
      expect(many).toEqual(one);
      expect(many.map((m) => m.length)).toEqual([1, 0, 2, 1, 1]);
      expect(many[0]![0]).toMatchObject({ matched_on: "parent", matched_value: base });
    });

    it("forEntities gives each item what forEntity gives it, in order, nulls included", async () => {
      const repo = new TypeOrmReportRepository(ds());
      const now = new Date("2026-11-20T00:00:00.000Z");
      const ids = [0, 1, 2].map(() => `${uniqueId("rep").toLowerCase()}.example`);
      const filed = [
        await repo.file({ reporter_id: uniqueId("u"), entity: { type: "domain", value: ids[0]!, id: `domain:${ids[0]}` }, category: "phishing" }, new Date("2026-11-10T00:00:00.000Z")),
        await repo.file({ reporter_id: uniqueId("u"), entity: { type: "domain", value: ids[2]!, id: `domain:${ids[2]}` }, category: "scam" }, now),
        await repo.file({ reporter_id: uniqueId("u"), entity: { type: "domain", value: ids[2]!, id: `domain:${ids[2]}` }, category: "phishing" }, now),
      ];
      // Only moderated reports count.
      for (const f of filed) await repo.moderate(f.report.id, { status: "confirmed", by: "acc_admin", reason: null, at: now });
      const items = [ids[2], ids[1], ids[0], ids[2]].map((v, i) => ({ entityId: `domain:${v}`, now: new Date(now.getTime() + i * 86_400_000) }));
      const many = await repo.forEntities(items);
      const one = await Promise.all(items.map((i) => repo.forEntity(i.entityId, i.now)));
      expect(many).toEqual(one);
      expect(many[1]).toBeNull();
      expect(many[0]).toMatchObject({ reporters: 2, categories: ["phishing", "scam"] });
      expect(many[3]!.weighted).toBeLessThan(many[0]!.weighted);
    });

    it("graph walks and bad-neighbour paths agree with the in-memory reference on random graphs", async () => {
      let seed = 20261124;
      const rnd = (n: number): number => {
        seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
        return (seed >>> 8) % n;
      };
      const now = new Date("2026-11-20T00:00:00Z");
      for (let g = 0; g < 2; g++) {
        const sqlFixture = sqlGraphFixture(ds());
        const sql = sqlFixture.repo as TypeOrmGraphRepository;
        const mem = new InMemoryGraphRepository();
        const prefix = uniqueId("rg").toLowerCase().replaceAll("_", "-");
        const id = (i: number) => `domain:n${i}.${prefix}.com`;
        const accounts = [`acc_1_${prefix}`, `acc_2_${prefix}`];
        // Node risk written by verdicts (shared and per account): shown in views, never evidence.
        const nodes = Array.from({ length: 30 }, (_, i) => ({ id: id(i), type: "domain" as const, value: id(i).slice(7), risk_score: 65 + rnd(35), risk_level: "high" as const, ...(rnd(2) ? { account_id: accounts[rnd(2)] } : {}) }));
        const relations = ["resolves_to", "subdomain_of", "same_owner"];
        const scopes = [undefined, undefined, ...accounts];
        const edges = Array.from({ length: 70 }, () => ({ from: id(rnd(30)), to: id(rnd(30)), relation: relations[rnd(3)]!, weight: 1, source: "test", seen_at: new Date("2026-11-01T00:00:00Z"), account_id: scopes[rnd(4)] ?? null }))
          .filter((e) => e.from !== e.to);
        for (const repo of [sql, mem]) {
          await repo.upsertNodes(nodes);
          await repo.upsertEdges(edges);
        }
        for (let i = 0; i < 30; i++) {
          const at = new Date(now.getTime() - rnd(60) * 86_400_000);
          const kind = rnd(6);
          if (kind === 0) {
            await sqlFixture.list(id(i), "block", "feed", at);
            mem.evidence.list(id(i), "block", "feed", at);
          } else if (kind === 1) {
            for (const r of [0, 1].slice(0, 1 + rnd(2))) {
              const trust = [0.3, 0.6, 1][rnd(3)]!;
              await sqlFixture.confirmedReport(id(i), trust, new Date(at.getTime() - r * 86_400_000));
              mem.evidence.confirmedReport(id(i), trust, new Date(at.getTime() - r * 86_400_000));
            }
          }
        }
        for (const root of [0, 1, 2].map(() => id(rnd(30)))) {
          for (const depth of [1, 2, 3]) {
            expect(await sql.badNeighbours(root, depth, now)).toEqual(await mem.badNeighbours(root, depth, now));
            for (const maxNodes of [5, 500]) {
              for (const relation of [undefined, "resolves_to"]) {
                for (const accountId of [undefined, accounts[0]]) {
                  const o = { depth, maxNodes, ...(relation ? { relation } : {}), ...(accountId ? { accountId } : {}) };
                  expect(await sql.walk(root, o)).toEqual(await mem.walk(root, o));
                }
              }
            }
          }
        }
      }
    }, 60_000);

    it("withEdges finds the ids that have an edge in either direction", async () => {
      const graph = new TypeOrmGraphRepository(ds());
      const [a, b, c] = [0, 1, 2].map(() => `domain:${uniqueId("g").toLowerCase()}.example`);
      await graph.upsertEdges([{ from: a!, to: b!, relation: "subdomain_of", weight: 1, source: "test", seen_at: new Date() }]);
      // An account's own edges are not shared evidence: proximity does not walk from them.
      const [x, y] = [0, 1].map(() => `domain:${uniqueId("g").toLowerCase()}.example`);
      await graph.upsertEdges([{ from: x!, to: y!, relation: "subdomain_of", weight: 1, source: "checks", seen_at: new Date(), account_id: "acc_someone" }]);
      expect(await graph.withEdges([x!, y!])).toEqual(new Set());
      await graph.upsertNodes([{ id: c!, type: "domain", value: c!.slice("domain:".length) }]);
      expect([...(await graph.withEdges([a!, b!, c!, a!]))].sort()).toEqual([a!, b!].sort());
      expect(await graph.withEdges([])).toEqual(new Set());
    });
  });
}
