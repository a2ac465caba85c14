import { formatApiKey } from "@svc/server-ports";
import { beforeEach, describe, expect, it } from "vitest";
import { BotKernel, type CommandContext } from "./bot-kernel.js";
import type { ChatUser } from "./chat-port.js";
import { InMemoryChatPort } from "./in-memory-chat-port.js";
import { InMemoryMemberDirectory } from "./in-memory-member-directory.js";
import { InMemoryPlanResolver } from "./in-memory-plan-resolver.js";
import { InMemoryReportSink } from "./in-memory-report-sink.js";
import { InMemoryScreening } from "./in-memory-screening.js";
import { InMemorySettingsStore } from "./in-memory-settings-store.js";
import { InMemoryStatsStore } from "./in-memory-stats-store.js";
import { InMemorySupportDesk } from "./in-memory-support-desk.js";
import { ManualClock } from "./manual-clock.js";
import type { Policy } from "./settings.js";

const GROUP = "-100200";
const admin: ChatUser = { id: "1", name: "Alice Walker", username: "alice_w" };
const member: ChatUser = { id: "5", name: "Mallory", username: "mallory" };

function setup(options: ConstructorParameters<typeof BotKernel>[0]["options"] = {}) {
  const chat = new InMemoryChatPort().setAdmins(GROUP, [admin]);
  chat.addMember(GROUP, { ...member, status: "member" });
  const screening = new InMemoryScreening().set("paypa1.com", "critical", "Looks like paypal.com").set("claim-drop.top", "high", "Suspicious TLD");
  const settings = new InMemorySettingsStore();
  const stats = new InMemoryStatsStore();
  const members = new InMemoryMemberDirectory();
  const reports = new InMemoryReportSink();
  const support = new InMemorySupportDesk();
  const plans = new InMemoryPlanResolver();
  const clock = new ManualClock();
  const kernel = new BotKernel({ platform: "test", dialect: "telegram", chat, screening, settings, reports, stats, members, support, plans, clock, options: { botUsername: "svc_bot", ...options } });
  const ctx = (sender: ChatUser, chatId = GROUP): CommandContext => ({ chatId, chatKind: chatId.startsWith("-") ? "group" : "private", sender, message: { chatId, messageId: "77" } });
  const say = (sender: ChatUser, text: string, chatId = GROUP) => kernel.onText(ctx(sender, chatId), text);
  const post = (text: string, sender: ChatUser = member, id = "900") => kernel.onMessage({ ref: { chatId: GROUP, messageId: id }, sender, text });
  return { kernel, chat, screening, settings, stats, members, reports, support, plans, clock, say, post };
}

describe("BotKernel monitoring", () => {
  let t: ReturnType<typeof setup>;
  beforeEach(async () => {
    t = setup();
    await t.kernel.onBotMembership(GROUP, { isAdmin: true, canDelete: true, canRestrict: true });
    t.chat.clear();
  });

  it.each<[Policy, string[]]>([
    ["notify", ["reply"]],
    ["delete", ["delete", "send"]],
    ["ban", ["ban", "delete", "send"]],
  ])("policy %s acts with the reason and appeal path", async (policy, ops) => {
    await t.say(admin, `/policy ${policy}`);
    t.chat.clear();
    const r = await t.post("free money at paypa1.com now");
    expect(r.decision.action).toBe(policy);
    expect(t.chat.calls.map((c) => c.op)).toEqual(ops);
    const warning = t.chat.texts().join("\n");
    expect(warning).toContain("paypa1[.]com: critical risk (95/100): Looks like paypal.com");
    expect(warning).toContain("/report paypa1[.]com false_positive");
  });

  it("falls back to a warning when the platform refuses to delete", async () => {
    t.chat.refuse.add("delete");
    const r = await t.post("paypa1.com");
    expect(r.performed).toEqual(["warned"]);
    expect(t.chat.texts().join()).toContain("I could not delete the message");
  });

  it("allowlisted domains skip screening; blocklisted patterns act without it", async () => {
    await t.say(admin, "/allowlist domain paypa1.com");
    await t.say(admin, "/blocklist add *.example-scam.net");
    t.chat.clear();
    t.screening.calls.length = 0;
    expect((await t.post("see https://www.paypa1.com/x")).decision.action).toBe("none");
    expect((await t.post("go to wallet.example-scam.net")).decision.findings[0]?.reason).toMatch(/blocklist pattern/u);
    expect(t.screening.calls).toEqual([]);
  });

  it("allowlisted users are still checked but never banned", async () => {
    await t.say(admin, "/policy ban");
    await t.say(admin, "/allowlist user @mallory");
    t.chat.clear();
    const r = await t.post("paypa1.com");
    expect(r.decision.action).toBe("delete");
    expect(t.chat.calls.map((c) => c.op)).not.toContain("ban");
  });

  it("logs every action to the log channel with the reason and the appeal", async () => {
    await t.say(admin, "/setlog -100999");
    t.chat.clear();
    await t.post("paypa1.com");
    const log = t.chat.calls.find((c) => c.op === "send" && c.chatId === "-100999");
    expect(log && "text" in log ? log.text : "").toMatch(/Action: deleted \(policy delete\)[\s\S]*Entity \(domain\) paypa1\[\.\]com: critical[\s\S]*Appeal: \/report paypa1\[\.\]com false_positive/u);
  });

  it("counts but keeps no message text anywhere", async () => {
    await t.post("my secret plan is at paypa1.com and nothing else matters");
    const everything = JSON.stringify([t.settings.dump(), [...t.stats.dump()], [...t.members.dump()].map(([k, v]) => [k, [...v]]), t.reports.reports, t.support.tickets, t.kernel.cache.keys()]);
    expect(everything).not.toContain("secret plan");
    expect(everything).not.toContain("nothing else matters");
    expect(await t.stats.get(GROUP)).toMatchObject({ messages_scanned: 1, entities_checked: 1, deletions: 1 });
  });
});

describe("BotKernel anti-raid and learn mode", () => {
  it("locks down on N joins in M minutes and lifts itself", async () => {
    const t = setup();
    await t.say(admin, "/antiraid 3 1 10");
    for (let i = 0; i < 3; i++) {
      await t.kernel.onJoin({ chatId: GROUP, user: { id: `u${i}`, name: `Raider ${i}` } });
      t.clock.advance(5_000);
    }
    expect(t.chat.calls.filter((c) => c.op === "restrict").map((c) => (c.op === "restrict" ? c.userId : ""))).toEqual(["u0", "u1", "u2"]);
    await t.kernel.onJoin({ chatId: GROUP, user: { id: "u3", name: "Raider 3" } });
    expect(t.chat.calls.filter((c) => c.op === "restrict")).toHaveLength(4);
    t.clock.advance(10 * 60_000);
    await t.kernel.tick();
    expect(t.chat.texts().at(-1)).toContain("Raid lockdown lifted");
    expect((await t.settings.get(GROUP))?.lockdownUntil).toBeNull();
  });

  it("learns without acting, then reports the baseline and turns monitoring on", async () => {
    const t = setup();
    await t.say(admin, "/learn 2");
    t.chat.clear();
    for (let i = 0; i < 4; i++) await t.post(`docs at https://docs.example.org/page${i}`);
    await t.post("paypa1.com");
    expect(t.chat.calls).toEqual([]);
    t.clock.advance(2 * 86_400_000);
    await t.kernel.tick();
    const report = t.chat.texts().join("\n");
    expect(report).toContain("Learning finished");
    expect(report).toContain("would have acted on 1 message(s)");
    expect(report).toContain("/allowlist domain example.org");
    expect(report).not.toContain("/allowlist domain paypa1.com");
    expect((await t.settings.get(GROUP))?.monitoring).toBe(true);
  });
});

describe("BotKernel commands", () => {
  it("refuses admin commands to members politely", async () => {
    const t = setup();
    await t.say(member, "/policy ban");
    expect(t.chat.texts()[0]).toMatch(/^Sorry, \/policy is for the admins of this group/u);
    expect(await t.settings.get(GROUP)).toBeNull();
  });

  it("binds a plan by API key, storing only its hash, and deletes the message with the key", async () => {
    const t = setup();
    const key = formatApiKey(new Uint8Array(32).fill(7));
    t.plans.add(key, "pro");
    await t.say(admin, `/connect ${key}`);
    const s = await t.settings.get(GROUP);
    expect(s?.plan).toMatchObject({ tier: "pro", source: "api_key", boundBy: "1" });
    expect(JSON.stringify(t.settings.dump())).not.toContain(key);
    expect(t.chat.calls[0]).toEqual({ op: "delete", ref: { chatId: GROUP, messageId: "77" } });
    expect(t.chat.texts().join()).toContain("now uses the pro plan");
  });

  it("rejects malformed and unknown keys", async () => {
    const t = setup();
    await t.say(admin, "/connect svc_live_nope");
    await t.say(admin, `/connect ${formatApiKey(new Uint8Array(32).fill(9))}`);
    expect(t.chat.texts()[0]).toContain("not a valid API key");
    expect(t.chat.texts()[1]).toContain("That key is not active (unknown or revoked). It must be a key from the svc server this bot uses");
  });

  it("gates commands by plan where the platform requires one", async () => {
    const t = setup({ minimumPlan: "starter" });
    await t.say(admin, "/audit");
    expect(t.chat.texts()[0]).toContain("needs the starter plan");
  });

  it("files reports and appeals to the report sink", async () => {
    const t = setup();
    await t.say(member, "/report paypa1.com phishing");
    await t.say(member, "/report paypa1.com false_positive");
    expect(t.reports.reports.map((r) => [r.entity.id, r.category, r.feedback])).toEqual([
      ["domain:paypa1.com", "phishing", undefined],
      ["domain:paypa1.com", "other", "false_positive"],
    ]);
  });

  it("flags a Cyrillic look-alike of an admin in /audit and /verify", async () => {
    const t = setup();
    const fake: ChatUser = { id: "66", name: "\u0410lice W\u0430lker", username: "alice_w_support" };
    t.chat.addMember(GROUP, { ...fake, status: "member" });
    await t.kernel.onMessage({ ref: { chatId: GROUP, messageId: "1" }, sender: fake, text: "hi all" });
    await t.say(admin, "/audit");
    expect(t.chat.texts().at(-1)).toContain("name looks identical to admin Alice Walker (@alice_w)");
    await t.say(admin, "/verify @alice_w_support");
    expect(t.chat.texts().at(-1)).toMatch(/NOT an admin[\s\S]*look-alike/u);
    await t.say(admin, "/verify @alice_w");
    expect(t.chat.texts().at(-1)).toContain("is a real admin");
  });
});

describe("BotKernel composition", () => {
  it("a platform composes the features it offers: a command of a feature left out is not available", async () => {
    const { DEFAULT_FEATURES } = await import("./bot-kernel.js");
    const { reportsFeature } = await import("./features/reports.js");
    const t = setup({ features: [(k, d) => reportsFeature(k, { reports: d.reports, stats: d.stats })] });
    expect(t.kernel.features.map((f) => f.name)).toEqual(["reports"]);
    await t.say(member, "/report paypa1.com phishing");
    expect(t.reports.reports).toHaveLength(1);
    await t.say(admin, "/antiraid off");
    expect(t.chat.texts().at(-1)).toMatch(/\/antiraid is not available here/u);
    const all = setup().kernel.features.map((f) => f.name);
    expect(all).toHaveLength(DEFAULT_FEATURES.length);
    expect(all).toEqual(["settings", "scan", "reports", "anti-raid", "impersonation", "welcome", "learn", "moderation", "plans", "support"]);
  });
});
