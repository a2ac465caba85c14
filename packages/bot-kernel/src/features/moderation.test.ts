import { describe, expect, it } from "vitest";
import { InMemoryMemberDirectory } from "../in-memory-member-directory.js";
import { InMemoryStatsStore } from "../in-memory-stats-store.js";
import { moderationFeature } from "./moderation.js";
import { featureKit } from "./test-kit.js";

describe("moderation feature", () => {
  const member = { id: "5", name: "Mallory" };

  it("acts on a risky message by the chat's policy, and does nothing while monitoring is off", async () => {
    const t = featureKit();
    const stats = t.stats;
    const f = moderationFeature(t.services, { stats, members: new InMemoryMemberDirectory() });
    const msg = { ref: { chatId: t.group, messageId: "9" }, sender: member, text: "claim at paypa1.com" };
    const off = await t.services.settingsFor(t.group);
    expect(await f.onMessage?.(msg, off)).toBeNull();
    const on = await t.services.save({ ...off, monitoring: true, policy: "delete" });
    const outcome = await f.onMessage?.(msg, on);
    expect(outcome?.performed).toEqual(["deleted", "warned"]);
    expect(await stats.get(t.group)).toMatchObject({ messages_scanned: 1, entities_checked: 1, deletions: 1 });
  });

  it("made admin: monitoring on and the missing rights named, once", async () => {
    const t = featureKit();
    const f = moderationFeature(t.services, { stats: new InMemoryStatsStore(), members: new InMemoryMemberDirectory() });
    await f.onBotMembership?.(t.group, { isAdmin: true, canDelete: false, canRestrict: true }, await t.services.settingsFor(t.group));
    await f.onBotMembership?.(t.group, { isAdmin: true, canDelete: false, canRestrict: true }, await t.services.settingsFor(t.group));
    expect((await t.settings.get(t.group))?.monitoring).toBe(true);
    expect(t.chat.texts()).toEqual([expect.stringMatching(/now protecting this group[\s\S]*Delete messages/u)]);
  });

  it("/banuser bans a member but never an admin; lists keep their entries", async () => {
    const t = featureKit();
    const members = new InMemoryMemberDirectory();
    await members.remember(t.group, member, t.clock.now());
    const f = moderationFeature(t.services, { stats: new InMemoryStatsStore(), members });
    const r = await t.run({ id: "1", name: "Alice" });
    await f.commands?.banuser?.(r, { name: "banuser", user: { kind: "id", id: "1" } });
    await f.commands?.banuser?.(r, { name: "banuser", user: { kind: "username", username: "nobody" } });
    await f.commands?.banuser?.(r, { name: "banuser", user: { kind: "id", id: "5" } });
    expect(r.replies).toEqual([expect.stringMatching(/is an admin; I won't ban admins/u), expect.stringMatching(/I don't know that user/u), expect.stringMatching(/Mallory \[id 5\] is banned/u)]);
    await f.commands?.blocklist?.(await t.run({ id: "1", name: "Alice" }), { name: "blocklist", action: "add", pattern: "*.zip-drop.net" });
    await f.commands?.allowlist?.(await t.run({ id: "1", name: "Alice" }), { name: "allowlist", action: "add", kind: "domain", value: "https://www.python.org/x" });
    expect(await t.settings.get(t.group)).toMatchObject({ blocklist: ["*.zip-drop.net"], allowlist: { domains: ["www.python.org"] } });
  });
});
