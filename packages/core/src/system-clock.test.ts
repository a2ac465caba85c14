import { describe, expect, it } from "vitest";
import { systemClock } from "./system-clock.js";

describe("the system clock's deadlines", () => {
  it("abort after the time asked, never before it, and a little after at most", async () => {
    const started = performance.now();
    const signal = systemClock.deadline?.(60) as AbortSignal;
    expect(signal.aborted).toBe(false);
    await new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
    const waited = performance.now() - started;
    expect(waited).toBeGreaterThanOrEqual(59);
    // 5 ms of sharing, plus whatever a busy test machine adds.
    expect(waited).toBeLessThan(2_000);
    expect((signal.reason as Error).name).toBe("TimeoutError");
  });

  it("checks asking at the same moment share one signal, which many may listen to without a warning", async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error): void => void warnings.push(w.name);
    process.on("warning", onWarning);
    try {
      // (Two calls may straddle the edge of a 5 ms slot: a few tries.)
      let a = systemClock.deadline?.(2_000) as AbortSignal;
      for (let i = 0; i < 5 && systemClock.deadline?.(2_000) !== a; i++) a = systemClock.deadline?.(2_000) as AbortSignal;
      expect(systemClock.deadline?.(2_000) === a || systemClock.deadline?.(2_000) === systemClock.deadline?.(2_000)).toBe(true);
      const listeners = Array.from({ length: 50 }, () => () => {});
      for (const l of listeners) a.addEventListener("abort", l);
      await new Promise((r) => setImmediate(r));
      for (const l of listeners) a.removeEventListener("abort", l);
      expect(warnings).toEqual([]);
      // A longer deadline is another signal.
      expect(systemClock.deadline?.(4_000)).not.toBe(a);
    } finally {
      process.off("warning", onWarning);
    }
  });
});
