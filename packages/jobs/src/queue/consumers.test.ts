import type { QueuedJob } from "@svc/server-ports";
import { describe, expect, it } from "vitest";
import { silentLog } from "../log.js";
import { Consumers, IDLE_SLEEP_MS, type QueueBackend } from "./consumers.js";

/** A backend in memory: `due` says when its next job is due (ms from now, or null), as nextDueMs would. */
function backend(o: { due?: () => number | null } = {}): QueueBackend & { fetches: number[]; jobs: QueuedJob[] } {
  const started = performance.now();
  const fetches: number[] = [];
  const jobs: QueuedJob[] = [];
  return {
    fetches,
    jobs,
    fetch: async () => {
      fetches.push(performance.now() - started);
      return jobs.splice(0, jobs.length);
    },
    complete: async () => undefined,
    fail: async () => undefined,
    release: async () => undefined,
    ...(o.due ? { nextDueMs: async () => (o.due as () => number | null)() } : {}),
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("an idle consumer loop (decision 0108)", () => {
  it("polls at its interval when the backend cannot say when the next job is due", async () => {
    const b = backend();
    const c = new Consumers(b, silentLog);
    c.add("q", { pollIntervalMs: 50 }, async () => undefined);
    await sleep(420);
    await c.stop(1_000);
    expect(b.fetches.length).toBeGreaterThanOrEqual(6);
  });

  it("sleeps while nothing waits, and is woken by a send", async () => {
    expect(IDLE_SLEEP_MS).toBeGreaterThanOrEqual(10_000);
    const b = backend({ due: () => null });
    const c = new Consumers(b, silentLog);
    const handled: unknown[] = [];
    c.add("q", { pollIntervalMs: 50 }, async (jobs) => void handled.push(...jobs.map((j) => j.data)));
    await sleep(400);
    expect(b.fetches.length).toBe(1);
    b.jobs.push({ id: "j1", queue: "q", data: "sent", retryCount: 0, retryLimit: 0 });
    c.wake("q");
    await sleep(100);
    await c.stop(1_000);
    expect(handled).toEqual(["sent"]);
  });

  it("wakes when the next job is due, not at its poll interval", async () => {
    let due: number | null = 300;
    const b = backend({ due: () => due });
    const c = new Consumers(b, silentLog);
    c.add("q", { pollIntervalMs: 60_000 }, async () => undefined);
    await sleep(150);
    due = null;
    await sleep(400);
    await c.stop(1_000);
    expect(b.fetches.length).toBe(2);
    expect(b.fetches[1]).toBeGreaterThanOrEqual(290);
    expect(b.fetches[1]).toBeLessThan(450);
  });
});
