import { describe, expect, it } from "vitest";
import { BotKernel } from "./bot-kernel.js";
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
import type { MemberSeen, StatIncrement } from "./ports.js";
import type { ChatSettings } from "./settings.js";
import type { StoreBufferOptions } from "./store-buffers.js";

/** In-memory stores with the database stores' batch methods, counting every call that would be a round trip. */
class CountingStats extends InMemoryStatsStore {
  calls = 0;
  failNext = false;
  override async add(chatId: string, counter: StatIncrement["counter"], by = 1): Promise<void> {
    this.calls++;
    await super.add(chatId, counter, by);
  }
  async addMany(increments: readonly StatIncrement[]): Promise<void> {
    this.calls++;
    if (this.failNext) {
      this.failNext = false;
      throw new Error("database unavailable");
    }
    for (const i of increments) await super.add(i.chatId, i.counter, i.by);
  }
}

class CountingMembers extends InMemoryMemberDirectory {
  calls = 0;
  override async remember(chatId: string, user: ChatUser, at: Date): Promise<boolean> {
    this.calls++;
    return super.remember(chatId, user, at);
  }
  async touch(seen: readonly MemberSeen[]): Promise<void> {
    this.calls++;
    for (const s of seen) {
      const m = await this.get(s.chatId, s.userId);
      if (m) await super.remember(s.chatId, m, s.at);
    }
  }
}

/** Another process writing the same row raises the version, as the database trigger does. */
class VersionedSettings extends InMemorySettingsStore {
  calls = 0;
  private readonly versions = new Map<string, number>();
  override async get(chatId: string): Promise<ChatSettings | null> {
    this.calls++;
    return super.get(chatId);
  }
  override async save(s: ChatSettings): Promise<void> {
    this.versions.set(s.chatId, (this.versions.get(s.chatId) ?? 0) + 1);
    await super.save(s);
  }
  async version(chatId: string): Promise<number> {
    this.calls++;
    return this.versions.get(chatId) ?? 0;
  }
}

const GROUP = "-100300";
const admin: ChatUser = { id: "1", name: "Alice Walker" };
const member: ChatUser = { id: "5", name: "Mallory", username: "mallory" };

function setup(writeBehind: StoreBufferOptions = {}) {
  const chat = new InMemoryChatPort().setAdmins(GROUP, [admin]);
  const screening = new InMemoryScreening().set("paypa1.com", "critical", "Looks like paypal.com");
  const settings = new VersionedSettings();
  const stats = new CountingStats();
  const members = new CountingMembers();
  const clock = new ManualClock();
  const errors: unknown[] = [];
  const kernel = new BotKernel({
    platform: "test", dialect: "telegram", chat, screening, settings, stats, members, clock,
    reports: new InMemoryReportSink(), support: new InMemorySupportDesk(), plans: new InMemoryPlanResolver(),
    options: { writeBehind: { onError: (e) => errors.push(e), ...writeBehind } },
  });
  const post = (text: string, sender: ChatUser = member, id = "900") => kernel.onMessage({ ref: { chatId: GROUP, messageId: id }, sender, text });
  const say = (sender: ChatUser, text: string) => kernel.onText({ chatId: GROUP, chatKind: "group", sender, message: { chatId: GROUP, messageId: "1" } }, text);
  return { kernel, chat, settings, stats, members, clock, post, say, errors };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("write-behind stores (StoreBuffers)", () => {
  it("scans many messages with a handful of store calls, and the counters add up once flushed", async () => {
    const t = setup({ flushIntervalMs: 60_000, settingsRevalidateMs: 60_000 });
    await t.kernel.onBotMembership(GROUP, { isAdmin: true, canDelete: true, canRestrict: true });
    t.settings.calls = 0;
    t.stats.calls = 0;
    t.members.calls = 0;
    for (let i = 0; i < 200; i++) await t.post(i % 50 === 0 ? "claim at paypa1.com" : "gm everyone", member, String(i));
    // One settings load (version + read), one member insert; no counter written yet.
    expect(t.settings.calls).toBeLessThanOrEqual(2);
    expect(t.members.calls).toBe(1);
    expect(t.stats.calls).toBe(0);
    // What /stats shows already counts what waits in memory.
    expect(await t.kernel.buffers.stats.get(GROUP)).toMatchObject({ messages_scanned: 200, flagged: 4, deletions: 4 });
    expect((await t.stats.get(GROUP)).messages_scanned).toBe(0);
    await t.kernel.flush();
    expect(t.stats.calls).toBe(1);
    expect(t.members.calls).toBe(2);
    expect(await t.stats.get(GROUP)).toMatchObject({ messages_scanned: 200, entities_checked: 4, flagged: 4, deletions: 4, warnings: 4 });
  });

  it("writes on its own within the interval, and at once when maxPending entries wait", async () => {
    const t = setup({ flushIntervalMs: 30, maxPending: 3 });
    await t.kernel.onBotMembership(GROUP, { isAdmin: true, canDelete: true, canRestrict: true });
    await t.post("gm");
    expect((await t.stats.get(GROUP)).messages_scanned).toBe(0);
    await sleep(80);
    expect((await t.stats.get(GROUP)).messages_scanned).toBe(1);
    // Three distinct members seen again + a counter: over maxPending, written without waiting for the timer.
    const people = ["a", "b", "c"].map((id) => ({ id, name: `User ${id}` }));
    for (const p of people) await t.post("hello", p);
    const before = t.members.calls;
    for (const p of people) await t.post("again", p);
    await sleep(0);
    await t.kernel.buffers.flush();
    expect(t.members.calls).toBeGreaterThan(before);
    expect(t.kernel.buffers.pending).toBe(0);
  });

  it("keeps counters whose write failed and writes them with the next one (nothing lost, nothing twice)", async () => {
    const t = setup({ flushIntervalMs: 60_000 });
    await t.kernel.onBotMembership(GROUP, { isAdmin: true, canDelete: true, canRestrict: true });
    for (let i = 0; i < 5; i++) await t.post("gm");
    t.stats.failNext = true;
    await expect(t.kernel.flush()).rejects.toThrow("database unavailable");
    for (let i = 0; i < 3; i++) await t.post("gm");
    await t.kernel.close();
    expect((await t.stats.get(GROUP)).messages_scanned).toBe(8);
  });

  it("a settings change through a command is used by the very next message; another writer's within the revalidation time", async () => {
    const t = setup({ settingsRevalidateMs: 40 });
    await t.kernel.onBotMembership(GROUP, { isAdmin: true, canDelete: true, canRestrict: true });
    expect((await t.post("claim at paypa1.com")).decision.action).toBe("delete");
    await t.say(admin, "/policy notify");
    expect((await t.post("claim at paypa1.com")).decision.action).toBe("notify");
    // Another bot process (or the payment ledger) writes the row: this kernel's copy is stale until revalidated.
    const row = (await t.settings.get(GROUP)) as ChatSettings;
    await t.settings.save({ ...row, monitoring: false });
    await sleep(60);
    expect((await t.post("claim at paypa1.com")).decision.action).toBe("none");
  });

  it("a plan granted by another writer in this process (the payment ledger) is used once the kernel reads the settings for it", async () => {
    const t = setup({ settingsRevalidateMs: 60_000 });
    await t.kernel.onBotMembership(GROUP, { isAdmin: true, canDelete: true, canRestrict: true });
    await t.post("gm");
    const row = (await t.settings.get(GROUP)) as ChatSettings;
    // As TypeOrmBotPaymentLedger.record does: the row changes under the kernel, then the kernel reads it (planPurchased).
    await t.settings.save({ ...row, policy: "notify" });
    expect((await t.post("claim at paypa1.com")).decision.action).toBe("delete");
    await t.kernel.planPurchased(GROUP);
    expect((await t.post("claim at paypa1.com")).decision.action).toBe("notify");
  });

  it("a member under a new name goes through the store (the impersonation check sees the change)", async () => {
    const t = setup({ flushIntervalMs: 60_000 });
    await t.kernel.onBotMembership(GROUP, { isAdmin: true, canDelete: true, canRestrict: true });
    await t.post("gm");
    await t.post("gm");
    const calls = t.members.calls;
    await t.post("gm", { ...member, name: "Alice Walker" });
    expect(t.members.calls).toBe(calls + 1);
    expect((await t.members.get(GROUP, member.id))?.name).toBe("Alice Walker");
  });

  it("without the batch methods, every call goes straight to the store", async () => {
    const stats = new InMemoryStatsStore();
    const kernel = new BotKernel({
      platform: "test", dialect: "telegram", chat: new InMemoryChatPort().setAdmins(GROUP, [admin]), screening: new InMemoryScreening(),
      settings: new InMemorySettingsStore(), stats, members: new InMemoryMemberDirectory(), clock: new ManualClock(),
      reports: new InMemoryReportSink(), support: new InMemorySupportDesk(), plans: new InMemoryPlanResolver(),
    });
    await kernel.onBotMembership(GROUP, { isAdmin: true, canDelete: true, canRestrict: true });
    await kernel.onMessage({ ref: { chatId: GROUP, messageId: "1" }, sender: member, text: "gm" });
    expect((await stats.get(GROUP)).messages_scanned).toBe(1);
  });
});
