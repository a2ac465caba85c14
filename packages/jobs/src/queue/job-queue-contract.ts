// Test-only module: the JobQueue port contract, run against every adapter and engine.
import type { JobQueue, QueuedJob } from "@svc/server-ports";
import type { DataSource, EntityManager } from "typeorm";
import { afterEach, describe, expect, it } from "vitest";

export interface JobQueueFixture {
  readonly ds: () => DataSource;
  /** A new adapter instance: another worker process, as far as the queue can tell. */
  make(): Promise<JobQueue<EntityManager>>;
  /** Seconds after which a dead worker's job runs again (lease + maintenance). */
  readonly leaseSeconds: number;
}

const until = async (cond: () => boolean | Promise<boolean>, ms = 20_000, what = "condition"): Promise<void> => {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let n = 0;
const qname = (base: string) => `${base}-${Date.now().toString(36)}-${++n}`;

export function jobQueueContract(name: string, fx: JobQueueFixture): void {
  describe(`JobQueue contract: ${name}`, () => {
    const open: JobQueue<EntityManager>[] = [];
    const make = async () => {
      const q = await fx.make();
      open.push(q);
      return q;
    };
    afterEach(async () => {
      await Promise.all(open.splice(0).map((q) => q.stop({ timeoutMs: 1_000 })));
    });
    const settings = (extra: object = {}) => ({ retryLimit: 2, retryDelaySeconds: 0, leaseSeconds: fx.leaseSeconds, ...extra });

    it("delivers a job once, with its data, and completes it", async () => {
      const q = await make();
      const queue = qname("once");
      await q.createQueue(queue, settings());
      const id = await q.send(queue, { hello: "world", n: 1 });
      expect(typeof id).toBe("string");
      const got: QueuedJob[] = [];
      await q.work(queue, { batchSize: 10, pollIntervalMs: 50 }, async (jobs) => void got.push(...jobs));
      await until(() => got.length === 1, 10_000, "the job");
      await sleep(Math.max(1_500, fx.leaseSeconds * 1000 + 1_500));
      expect(got).toHaveLength(1);
      expect(got[0]).toMatchObject({ id, queue, data: { hello: "world", n: 1 }, retryCount: 0, retryLimit: 2 });
    });

    it("sends inside a transaction: a rolled-back job never runs, a committed one does", async () => {
      const q = await make();
      const queue = qname("tx");
      await q.createQueue(queue, settings());
      await expect(fx.ds().transaction(async (m) => {
        await q.send(queue, { which: "rolled back" }, { tx: m });
        throw new Error("abort");
      })).rejects.toThrow("abort");
      await fx.ds().transaction(async (m) => {
        await q.send(queue, { which: "committed" }, { tx: m });
      });
      const got: unknown[] = [];
      await q.work(queue, { batchSize: 10, pollIntervalMs: 50 }, async (jobs) => void got.push(...jobs.map((j) => j.data)));
      await until(() => got.length >= 1, 10_000, "the committed job");
      await sleep(500);
      expect(got).toEqual([{ which: "committed" }]);
    });

    it("retries a failed job and moves it to its dead-letter queue after retryLimit", async () => {
      const q = await make();
      const queue = qname("fail");
      const dead = `${queue}-dead`;
      await q.createQueue(dead, settings());
      await q.createQueue(queue, settings({ retryLimit: 2, deadLetter: dead }));
      await q.send(queue, { k: "poison" });
      const runs: number[] = [];
      const buried: unknown[] = [];
      await q.work(queue, { pollIntervalMs: 50 }, async (jobs) => {
        runs.push(...jobs.map((j) => j.retryCount));
        throw new Error("boom");
      });
      await q.work(dead, { pollIntervalMs: 50 }, async (jobs) => void buried.push(...jobs.map((j) => j.data)));
      await until(() => buried.length === 1, 20_000, "the dead letter");
      expect(runs).toEqual([0, 1, 2]);
      expect(buried).toEqual([{ k: "poison" }]);
    });

    it("runs the job of a worker that died again after its lease, on another worker", async () => {
      const a = await make();
      const b = await make();
      const queue = qname("lease");
      await a.createQueue(queue, settings());
      await b.createQueue(queue, settings());
      await a.send(queue, { k: 1 });
      let aTook = 0;
      // Worker A takes the job and never finishes it: as good as killed.
      await a.work(queue, { pollIntervalMs: 50 }, () => {
        aTook++;
        return new Promise(() => {});
      });
      await until(() => aTook === 1, 10_000, "A to take the job");
      const taken = Date.now();
      const bGot: QueuedJob[] = [];
      await b.work(queue, { pollIntervalMs: 100 }, async (jobs) => void bGot.push(...jobs));
      await until(() => bGot.length === 1, 30_000, "B to get the job");
      expect(Date.now() - taken).toBeGreaterThanOrEqual(fx.leaseSeconds * 1000 - 100);
      expect(bGot[0]).toMatchObject({ data: { k: 1 }, retryCount: 1 });
      expect(aTook).toBe(1);
    });

    it("stop() waits for the batch in flight and completes it", async () => {
      const q = await make();
      const queue = qname("stop");
      await q.createQueue(queue, settings());
      await q.send(queue, { k: 1 });
      let finished = false;
      let started = false;
      await q.work(queue, { pollIntervalMs: 50 }, async () => {
        started = true;
        await sleep(400);
        finished = true;
      });
      await until(() => started, 10_000, "the job to start");
      await q.stop({ timeoutMs: 5_000 });
      expect(finished).toBe(true);
      // Nothing left: a new worker gets nothing.
      const again = await make();
      await again.createQueue(queue, settings());
      const got: unknown[] = [];
      await again.work(queue, { pollIntervalMs: 50 }, async (jobs) => void got.push(...jobs));
      await sleep(Math.max(1_000, fx.leaseSeconds * 1000 + 1_500));
      expect(got).toEqual([]);
    });

    it("keeps jobs across a restart of the worker", async () => {
      const first = await make();
      const queue = qname("durable");
      await first.createQueue(queue, settings());
      await first.send(queue, { k: "kept" });
      await first.stop({ timeoutMs: 1_000 });
      const second = await make();
      await second.createQueue(queue, settings());
      const got: unknown[] = [];
      await second.work(queue, { pollIntervalMs: 50 }, async (jobs) => void got.push(...jobs.map((j) => j.data)));
      await until(() => got.length === 1, 10_000, "the kept job");
      expect(got).toEqual([{ k: "kept" }]);
    });

    it("shares 300 jobs between two workers, each job run exactly once", async () => {
      const a = await make();
      const b = await make();
      const queue = qname("share");
      await a.createQueue(queue, settings());
      await b.createQueue(queue, settings());
      for (let i = 0; i < 300; i += 50) {
        await fx.ds().transaction(async (m) => {
          for (let k = i; k < i + 50; k++) await a.send(queue, { k }, { tx: m });
        });
      }
      const seen: number[] = [];
      const by = { a: 0, b: 0 };
      const handler = (who: "a" | "b") => async (jobs: readonly QueuedJob<{ k: number }>[]) => {
        by[who] += jobs.length;
        seen.push(...jobs.map((j) => j.data.k));
        await sleep(5);
      };
      await a.work(queue, { batchSize: 20, concurrency: 2, pollIntervalMs: 50 }, handler("a"));
      await b.work(queue, { batchSize: 20, concurrency: 2, pollIntervalMs: 50 }, handler("b"));
      await until(() => seen.length >= 300, 30_000, "300 jobs");
      await sleep(300);
      expect(seen).toHaveLength(300);
      expect(new Set(seen).size).toBe(300);
      expect(by.a + by.b).toBe(300);
    });
  });
}
