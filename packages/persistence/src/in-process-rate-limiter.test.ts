import { describe, expect, it } from "vitest";
import { uniqueId } from "@svc/testing";
import { rateLimiterBehaviour } from "./rate-limiter-contract.js";
import { InProcessRateLimiter } from "./repositories/in-process-rate-limiter.js";

// The same answers as the database's limiter (and rate-limiter-contract.ts compares the two on a random sequence).
rateLimiterBehaviour("in process (the embedded default)", () => new InProcessRateLimiter());

describe("in-process rate limiter", () => {
  it("forgets keys whose windows are empty once many are held, and keeps the live ones", async () => {
    const r = new InProcessRateLimiter();
    const t0 = new Date("2026-11-01T10:00:00Z");
    const live = uniqueId("rk");
    for (let i = 0; i < 10_000; i++) await r.take(`old-${i}`, t0, 1, 5);
    await r.take(live, new Date(t0.getTime() + 70_000), 2, 5);
    // A take once 10,000 keys are held sweeps the expired ones.
    await r.take(uniqueId("rk"), new Date(t0.getTime() + 70_000), 1, 5);
    expect((r as unknown as { windows: Map<string, unknown> }).windows.size).toBe(2);
    expect(await r.peek(live, new Date(t0.getTime() + 70_000), 5)).toMatchObject({ used: 2, remaining: 3 });
  });

  it("refuses a window that is not whole seconds, and costs that are not whole units", async () => {
    expect(() => new InProcessRateLimiter(1_500)).toThrow(/whole number of seconds/);
    await expect(new InProcessRateLimiter().take("k", new Date(), 1.5, 3)).rejects.toThrow(/non-negative integer/);
  });
});
