import { describe, expect, it } from "vitest";
import { InMemoryStatsStore } from "../in-memory-stats-store.js";
import { learnFeature } from "./learn.js";
import { featureKit } from "./test-kit.js";

describe("learn feature", () => {
  it("observes while learning (acts on nothing), and finishing turns monitoring on with a baseline", async () => {
    const t = featureKit();
    const f = learnFeature(t.services, { stats: new InMemoryStatsStore() });
    expect(await f.onMessage?.({ ref: { chatId: t.group, messageId: "1" }, sender: { id: "5", name: "M" }, text: "paypa1.com" }, await t.services.settingsFor(t.group))).toBeNull();
    await f.commands?.learn?.(await t.run({ id: "1", name: "Alice" }), { name: "learn", action: "start", days: 1 });
    for (let i = 0; i < 3; i++) {
      const out = await f.onMessage?.({ ref: { chatId: t.group, messageId: String(i) }, sender: { id: "5", name: "M" }, text: `https://github.com/o/r/${i} and paypa1.com` }, await t.services.settingsFor(t.group));
      expect(out?.performed).toEqual([]);
    }
    expect(t.chat.calls).toEqual([]);
    expect((await t.settings.get(t.group))?.learn).toMatchObject({ messages: 3, wouldAct: 3, domains: { "github.com": 3 } });
    t.clock.advance(86_400_000);
    const s = await f.expire?.(await t.services.settingsFor(t.group), t.clock.now());
    expect(s).toMatchObject({ learn: null, monitoring: true });
    expect(t.chat.texts()[0]).toMatch(/Learning finished[\s\S]*github\.com/u);
  });
});
