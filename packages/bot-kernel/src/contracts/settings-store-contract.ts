import { defaultSettings, type ChatSettings } from "../settings.js";
import { at, fresh, PLATFORM, T0, type MakeBotStores, type TestApi } from "./fixture.js";

/** Settings with every field away from its default, nested lists and Unicode included. */
export function fullSettings(chatId: string, platform = PLATFORM): ChatSettings {
  return {
    chatId,
    platform,
    monitoring: true,
    policy: "ban",
    policyByLevel: { high: "notify" },
    alerts: { kind: "chat", chatId: "-100777" },
    antiRaid: { enabled: false, joins: 25, minutes: 3, lockdownMinutes: 90 },
    lockdownUntil: at(30).toISOString(),
    welcome: { mode: "custom", text: "Willkommen {name}! «Admins» never DM first — 👋 \"quoted\" \\ backslash" },
    blocklist: ["*.top", "metamask-*", "0x0000*"],
    allowlist: { users: ["id:42", "@trent"], domains: ["example.org", "docs.python.org"] },
    logChannel: "-100888",
    plan: { tier: "pro", source: "api_key", keyHash: "a".repeat(64), boundBy: "100", until: null },
    learn: {
      startedAt: T0.toISOString(),
      until: at(60 * 24).toISOString(),
      messages: 12,
      messagesWithEntities: 5,
      wouldAct: 1,
      domains: { "example.org": 4, "пример.рф": 1, "docs.python.org": 3 },
    },
    updatedAt: at(1).toISOString(),
  };
}

export function settingsStoreContract(t: TestApi, name: string, make: MakeBotStores): void {
  const { describe, it, expect } = t;
  describe(`SettingsStore contract: ${name}`, () => {
    it("answers null for a chat it never saw", async () => {
      const { settings } = (await make()).stores(PLATFORM);
      expect(await settings.get(fresh("chat"))).toBeNull();
    });

    it("round-trips every field", async () => {
      const { settings } = (await make()).stores(PLATFORM);
      const s = fullSettings(fresh("chat"));
      await settings.save(s);
      expect(await settings.get(s.chatId)).toEqual(s);
      const d = defaultSettings(fresh("chat"), PLATFORM, T0);
      await settings.save(d);
      expect(await settings.get(d.chatId)).toEqual(d);
    });

    it("round-trips a Stars plan with its end, and alerts to a user", async () => {
      const { settings } = (await make()).stores(PLATFORM);
      const s: ChatSettings = {
        ...defaultSettings(fresh("chat"), PLATFORM, T0),
        alerts: { kind: "me", userId: "100" },
        welcome: { mode: "on" },
        plan: { tier: "starter", source: "stars", boundBy: "200", until: at(60 * 24 * 30).toISOString() },
      };
      await settings.save(s);
      expect(await settings.get(s.chatId)).toEqual(s);
    });

    it("replaces the whole record on save, lists and optional parts included", async () => {
      const { settings } = (await make()).stores(PLATFORM);
      const s = fullSettings(fresh("chat"));
      await settings.save(s);
      const next: ChatSettings = {
        ...s,
        monitoring: false,
        policy: "notify",
        alerts: { kind: "here" },
        lockdownUntil: null,
        welcome: { mode: "off" },
        blocklist: [],
        allowlist: { users: [], domains: ["example.org"] },
        logChannel: null,
        plan: { tier: "free", source: "none", until: null },
        learn: null,
        updatedAt: at(5).toISOString(),
      };
      await settings.save(next);
      expect(await settings.get(s.chatId)).toEqual(next);
    });

    it("keeps chats apart", async () => {
      const { settings } = (await make()).stores(PLATFORM);
      const a = fullSettings(fresh("chat"));
      const b = defaultSettings(fresh("chat"), PLATFORM, T0);
      await settings.save(a);
      await settings.save(b);
      await settings.save({ ...b, blocklist: ["*.xyz"], policy: "notify" });
      expect(await settings.get(a.chatId)).toEqual(a);
      expect((await settings.get(b.chatId))?.blocklist).toEqual(["*.xyz"]);
    });

    it("keeps platforms apart: the same chat id on two platforms is two chats", async () => {
      const f = await make();
      const chatId = fresh("chat");
      const one = f.stores("platform-one").settings;
      const two = f.stores("platform-two").settings;
      await one.save(fullSettings(chatId, "platform-one"));
      expect(await two.get(chatId)).toBeNull();
      await two.save(defaultSettings(chatId, "platform-two", T0));
      expect(await one.get(chatId)).toEqual(fullSettings(chatId, "platform-one"));
      expect((await two.get(chatId))?.policy).toBe("delete");
    });

    it("stores a copy: changing the saved object afterwards changes nothing", async () => {
      const { settings } = (await make()).stores(PLATFORM);
      const s = fullSettings(fresh("chat"));
      const mutable = structuredClone(s) as unknown as { blocklist: string[]; allowlist: { users: string[] } };
      await settings.save(mutable as unknown as ChatSettings);
      mutable.blocklist.push("*.evil");
      mutable.allowlist.users.length = 0;
      expect(await settings.get(s.chatId)).toEqual(s);
    });

    it("lists the chats whose lockdown or learning period is due, and only those", async () => {
      const { settings } = (await make()).stores(PLATFORM);
      const base = (): ChatSettings => ({ ...defaultSettings(fresh("chat"), PLATFORM, T0), lockdownUntil: null, learn: null });
      const lockdownDue = { ...base(), lockdownUntil: at(10).toISOString() };
      const lockdownExactlyNow = { ...base(), lockdownUntil: at(20).toISOString() };
      const lockdownLater = { ...base(), lockdownUntil: at(21).toISOString() };
      const learnDue = { ...base(), learn: { ...(fullSettings("x").learn as NonNullable<ChatSettings["learn"]>), until: at(15).toISOString() } };
      const learnLater = { ...base(), learn: { ...(fullSettings("x").learn as NonNullable<ChatSettings["learn"]>), until: at(60).toISOString() } };
      const idle = base();
      const all = [lockdownDue, lockdownExactlyNow, lockdownLater, learnDue, learnLater, idle];
      for (const s of all) await settings.save(s);
      const ours = new Set(all.map((s) => s.chatId));
      const due = (await settings.due(at(20))).filter((s) => ours.has(s.chatId));
      expect(due.map((s) => s.chatId).sort()).toEqual([lockdownDue, lockdownExactlyNow, learnDue].map((s) => s.chatId).sort());
      expect(due.find((s) => s.chatId === learnDue.chatId)).toEqual(learnDue);
      await settings.save({ ...lockdownDue, lockdownUntil: null });
      expect((await settings.due(at(20))).some((s) => s.chatId === lockdownDue.chatId)).toBe(false);
    });

    it("due() answers only the store's own platform", async () => {
      const f = await make();
      const chatId = fresh("chat");
      await f.stores("platform-one").settings.save({ ...defaultSettings(chatId, "platform-one", T0), lockdownUntil: at(1).toISOString() });
      expect((await f.stores("platform-two").settings.due(at(2))).some((s) => s.chatId === chatId)).toBe(false);
      expect((await f.stores("platform-one").settings.due(at(2))).some((s) => s.chatId === chatId)).toBe(true);
    });
  });
}
