import { describe, expect, it } from "vitest";
import { Coalescer } from "./coalesce.js";

describe("Coalescer", () => {
  it("answers each caller with its own result and groups calls made together", async () => {
    const batches: number[][] = [];
    const c = new Coalescer<number, number>(async (xs) => {
      batches.push([...xs]);
      await new Promise((r) => setTimeout(r, 5));
      return xs.map((x) => x * 10);
    }, { maxInFlight: 1, maxBatch: 50 });
    const first = await Promise.all(Array.from({ length: 120 }, (_, i) => c.call(i)));
    expect(first).toEqual(Array.from({ length: 120 }, (_, i) => i * 10));
    expect(batches.map((b) => b.length)).toEqual([50, 50, 20]);
    expect(batches.flat()).toEqual(Array.from({ length: 120 }, (_, i) => i));
    expect(await c.call(7)).toBe(70);
  });

  it("never runs more batches at once than allowed; calls arriving meanwhile join the next one", async () => {
    const gates: (() => void)[] = [];
    const sizes: number[] = [];
    let running = 0;
    let most = 0;
    const c = new Coalescer<number, number>(async (xs) => {
      running++;
      most = Math.max(most, running);
      sizes.push(xs.length);
      await new Promise<void>((r) => gates.push(r));
      running--;
      return [...xs];
    }, { maxInFlight: 2 });
    const tick = () => new Promise((r) => setImmediate(r));
    const calls: Promise<number>[] = [];
    const burst = (from: number) => {
      for (let i = 0; i < 10; i++) calls.push(c.call(from + i));
    };
    burst(0);
    await tick();
    burst(10);
    await tick();
    burst(20); // both slots busy: waits
    await tick();
    burst(30);
    await tick();
    expect(sizes).toEqual([10, 10]);
    gates.shift()!();
    await tick();
    await tick();
    expect(sizes).toEqual([10, 10, 20]);
    while (gates.length > 0) {
      gates.shift()!();
      await tick();
    }
    expect(await Promise.all(calls)).toEqual(Array.from({ length: 40 }, (_, i) => i));
    expect(most).toBe(2);
  });

  it("fails every caller of a failed batch, and the next batch runs normally", async () => {
    let fail = true;
    const c = new Coalescer<string, string>(async (xs) => {
      if (fail) throw new Error("database down");
      return xs.map((x) => x.toUpperCase());
    });
    const r = await Promise.allSettled([c.call("a"), c.call("b")]);
    expect(r.map((x) => x.status)).toEqual(["rejected", "rejected"]);
    fail = false;
    expect(await c.call("c")).toBe("C");
  });

  it("rejects when a batch returns the wrong number of results", async () => {
    const c = new Coalescer<number, number>(async () => [1]);
    await expect(Promise.all([c.call(1), c.call(2)])).rejects.toThrow(/2 items/);
  });
});
