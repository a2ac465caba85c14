import { describe, expect, it } from "vitest";
import { InMemoryStatsStore } from "../in-memory-stats-store.js";
import { settingsFeature } from "./settings.js";
import { featureKit } from "./test-kit.js";

describe("settings feature", () => {
  it("/status shows counters and queue depth; /alerts me stores the sender; /setlog checks it can post", async () => {
    const t = featureKit();
    const stats = new InMemoryStatsStore();
    await stats.add(t.group, "messages_scanned", 4);
    const f = settingsFeature(t.services, { stats, queueDepth: () => 2 });
    const r = await t.run({ id: "1", name: "Alice" });
    await f.commands?.status?.(r, { name: "status" });
    expect(r.replies[0]).toMatch(/Messages scanned: 4[\s\S]*Queue depth: 2/u);
    await f.commands?.alerts?.(r, { name: "alerts", destination: { kind: "me" } });
    expect((await t.settings.get(t.group))?.alerts).toEqual({ kind: "me", userId: "1" });
    t.chat.send = async () => {
      throw new Error("403: bot is not a member");
    };
    await f.commands?.setlog?.(await t.run({ id: "1", name: "Alice" }), { name: "setlog", channel: "-100777" });
    expect((await t.settings.get(t.group))?.logChannel).toBeNull();
  });
});
