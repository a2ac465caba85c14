import { describe, expect, it } from "vitest";
import { InMemoryStatsStore } from "../in-memory-stats-store.js";
import { scanFeature } from "./scan.js";
import { featureKit } from "./test-kit.js";

describe("scan feature", () => {
  it("/check answers a verdict and counts the check", async () => {
    const t = featureKit();
    const stats = new InMemoryStatsStore();
    const f = scanFeature(t.services, { stats });
    const r = await t.run({ id: "5", name: "Mallory" }, "5");
    await f.commands?.check?.(r, { name: "check", entity: "paypa1.com" });
    expect(r.replies[0]).toMatch(/CRITICAL risk/u);
    expect((await stats.get("5")).checks).toBe(1);
  });

  it("a direct message gets a verdict per entity, and a support-sounding forwarder is called out", async () => {
    const t = featureKit();
    const f = scanFeature(t.services, { stats: new InMemoryStatsStore() });
    const handled = await f.onPrivateMessage?.({ ref: { chatId: "5", messageId: "1" }, sender: { id: "5", name: "M" }, text: "verify at paypa1.com", forwardedFrom: { name: "Technical Support" } });
    expect(handled).toBe(true);
    expect(t.chat.texts()[0]).toMatch(/Forwarded from Technical Support[\s\S]*never message you first[\s\S]*CRITICAL risk/u);
  });
});
