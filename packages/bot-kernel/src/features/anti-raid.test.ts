import { describe, expect, it } from "vitest";
import { InMemoryStatsStore } from "../in-memory-stats-store.js";
import { antiRaidFeature, welcomeFeature } from "./anti-raid.js";
import type { JoinState } from "./feature.js";
import { featureKit } from "./test-kit.js";

describe("anti-raid feature", () => {
  it("locks down on the threshold, mutes joiners during it without a post each, and lifting unmutes them", async () => {
    const t = featureKit();
    const stats = new InMemoryStatsStore();
    const f = antiRaidFeature(t.services, { stats });
    await t.services.save({ ...(await t.services.settingsFor(t.group)), antiRaid: { enabled: true, joins: 3, minutes: 1, lockdownMinutes: 10 } });
    const join = async (id: string): Promise<"stop" | void> => f.onJoin?.({ chatId: t.group, user: { id, name: `R${id}` } }, await t.services.settingsFor(t.group), { bunched: false });
    expect(await join("1")).toBeUndefined();
    expect(await join("2")).toBeUndefined();
    expect(await join("3")).toBe("stop");
    expect(await join("4")).toBe("stop");
    expect(t.chat.calls.filter((c) => c.op === "restrict").map((c) => (c.op === "restrict" ? c.userId : ""))).toEqual(["1", "2", "3", "4"]);
    expect(t.chat.texts()).toEqual([expect.stringMatching(/Raid detected/u)]);
    t.clock.advance(10 * 60_000);
    const after = await f.expire?.(await t.services.settingsFor(t.group), t.clock.now());
    expect(after?.lockdownUntil).toBeNull();
    expect(t.chat.calls.filter((c) => c.op === "unrestrict")).toHaveLength(4);
    expect(t.chat.texts().at(-1)).toMatch(/lockdown lifted[\s\S]*4 newcomer/u);
  });

  it("welcome holds back while joins bunch up", async () => {
    const t = featureKit();
    const f = welcomeFeature(t.services);
    const s = { ...(await t.services.settingsFor(t.group)), welcome: { mode: "on" as const } };
    const state: JoinState = { bunched: false };
    await f.onJoin?.({ chatId: t.group, user: { id: "9", name: "Neo" } }, s, state);
    await f.onJoin?.({ chatId: t.group, user: { id: "10", name: "Raider" } }, s, { bunched: true });
    expect(t.chat.texts()).toEqual([expect.stringMatching(/^Welcome, Neo!/u)]);
  });
});
