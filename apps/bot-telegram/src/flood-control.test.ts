import { describe, expect, it } from "vitest";
import { createHarness, MEMBER } from "./test-harness.js";

const tooMany = (retry_after: number) => () => ({ ok: false as const, error_code: 429, description: `Too Many Requests: retry after ${retry_after}`, parameters: { retry_after } });

describe("flood control", () => {
  it("waits retry_after and retries the same call", async () => {
    const h = createHarness();
    h.once("sendMessage", tooMany(3));
    h.once("sendMessage", tooMany(1));
    const before = h.clock.now().getTime();
    await h.group(MEMBER, "/status");
    const sends = h.sent("sendMessage");
    expect(sends).toHaveLength(3);
    expect(sends[2]).toEqual(sends[0]);
    expect(h.sleeps).toEqual([3000, 1000]);
    expect(h.clock.now().getTime() - before).toBe(4000);
    expect(h.errors).toEqual([]);
  });

  it("retries inline a bounded number of times, then queues the call", async () => {
    const h = createHarness();
    for (let i = 0; i < 5; i++) h.once("sendMessage", tooMany(1));
    await h.group(MEMBER, "/status");
    expect(h.sent("sendMessage")).toHaveLength(4);
    expect(h.errors).toEqual([]);
    expect(h.app.deferred.size).toBe(1);
    h.clock.advance(1000);
    await h.app.tick(); // the fifth 429: queued again
    h.clock.advance(1000);
    await h.app.tick();
    expect(h.sent("sendMessage")).toHaveLength(6);
    expect(h.app.deferred.size).toBe(0);
  });

  it("does not wait out a long retry_after inline: the call is queued and made after the wait", async () => {
    const h = createHarness();
    h.once("sendMessage", tooMany(3600));
    await h.group(MEMBER, "/status");
    expect(h.sleeps).toEqual([]);
    expect(h.errors).toEqual([]);
    expect(h.sent("sendMessage")).toHaveLength(1);
    h.clock.advance(3599_000);
    await h.app.tick();
    expect(h.sent("sendMessage")).toHaveLength(1);
    h.clock.advance(1000);
    await h.app.tick();
    const sends = h.sent("sendMessage");
    expect(sends).toHaveLength(2);
    expect(sends[1]).toEqual(sends[0]);
  });

  it("passes other errors through untouched", async () => {
    const h = createHarness();
    h.once("sendMessage", () => ({ ok: false, error_code: 403, description: "Forbidden: bot was blocked by the user" }));
    await h.dm(MEMBER, "paypa1.com");
    expect(h.sent("sendMessage")).toHaveLength(1);
    expect(h.sleeps).toEqual([]);
  });
});
