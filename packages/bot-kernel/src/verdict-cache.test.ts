import { describe, expect, it } from "vitest";
import { InMemoryScreening } from "./in-memory-screening.js";
import { ManualClock } from "./manual-clock.js";
import { isVerdict } from "./ports.js";
import { VerdictCache } from "./verdict-cache.js";

describe("VerdictCache", () => {
  it("serves repeats from cache until the TTL passes", async () => {
    const port = new InMemoryScreening().set("paypa1.com", "high");
    const clock = new ManualClock();
    const cache = new VerdictCache(port, clock, { ttlMs: 60_000 });
    await cache.screen("domain:paypa1.com", "paypa1.com");
    await cache.screen("domain:paypa1.com", "paypa1.com");
    expect(port.calls).toHaveLength(1);
    clock.advance(61_000);
    await cache.screen("domain:paypa1.com", "paypa1.com");
    expect(port.calls).toHaveLength(2);
  });

  it("is bounded, evicting the least recently used", async () => {
    const port = new InMemoryScreening();
    const cache = new VerdictCache(port, new ManualClock(), { maxEntries: 2 });
    await cache.screen("domain:a.com", "a.com");
    await cache.screen("domain:b.com", "b.com");
    await cache.screen("domain:a.com", "a.com");
    await cache.screen("domain:c.com", "c.com");
    expect(cache.keys()).toEqual(["domain:a.com", "domain:c.com"]);
  });

  it("shares one call between concurrent lookups and never caches errors", async () => {
    const port = new InMemoryScreening().fail("down.com");
    const cache = new VerdictCache(port, new ManualClock());
    const [a, b] = await Promise.all([cache.screen("domain:down.com", "down.com"), cache.screen("domain:down.com", "down.com")]);
    expect(port.calls).toHaveLength(1);
    expect(isVerdict(a) || isVerdict(b)).toBe(false);
    await cache.screen("domain:down.com", "down.com");
    expect(port.calls).toHaveLength(2);
  });

  it("turns a throwing port into an error outcome", async () => {
    const cache = new VerdictCache({ screen: () => Promise.reject(new Error("boom")) }, new ManualClock());
    expect(await cache.screen("domain:x.com", "x.com")).toEqual({ error: { code: "screening.unavailable", message: "boom" } });
  });
});
