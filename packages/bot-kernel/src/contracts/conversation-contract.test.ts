import { describe, expect, it } from "vitest";
import { BotKernel, FEATURES, featuresWithout } from "../bot-kernel.js";
import type { ChatUser } from "../chat-port.js";
import { spell } from "../commands.js";
import { InMemoryChatPort } from "../in-memory-chat-port.js";
import type { InMemoryScreening } from "../in-memory-screening.js";
import { InMemoryMemberDirectory } from "../in-memory-member-directory.js";
import { InMemoryPlanResolver } from "../in-memory-plan-resolver.js";
import { InMemoryReportSink } from "../in-memory-report-sink.js";
import { InMemorySettingsStore } from "../in-memory-settings-store.js";
import { InMemoryStatsStore } from "../in-memory-stats-store.js";
import { InMemorySupportDesk } from "../in-memory-support-desk.js";
import { ManualClock } from "../manual-clock.js";
import { conversationContract, type ConversationDriver, type Observed, type Person } from "./conversation-contract.js";

const GROUP = "-100200";
const users: Record<"admin" | "member", ChatUser> = { admin: { id: "1", name: "Alice Walker" }, member: { id: "5", name: "Mallory" } };
const userOf = (p: Person): ChatUser => (p.role === "raider" ? { id: `r${p.n}`, name: `Raider ${p.n}` } : users[p.role]);
const personOf = (id: string): Person | null => (id === "1" ? { role: "admin" } : id === "5" ? { role: "member" } : /^r\d+$/u.test(id) ? { role: "raider", n: Number(id.slice(1)) } : null);

/** The reference driver: the kernel on its in-memory chat port, no platform at all; `notifyOnly` composes it as Slack and WhatsApp do. */
const referenceDriver = (notifyOnly: boolean) => async (screening: InMemoryScreening): Promise<ConversationDriver> => {
  const chat = new InMemoryChatPort().setAdmins(GROUP, [users.admin]);
  const clock = new ManualClock("2026-03-02T09:00:00.000Z");
  const kernel = new BotKernel({
    platform: "test", dialect: "telegram", chat, screening, clock,
    settings: new InMemorySettingsStore(), reports: new InMemoryReportSink(), stats: new InMemoryStatsStore(), members: new InMemoryMemberDirectory(), support: new InMemorySupportDesk(), plans: new InMemoryPlanResolver(),
    ...(notifyOnly ? { options: { capabilities: { delete: false, ban: false, restrict: false }, features: featuresWithout(FEATURES.antiRaid, FEATURES.welcome) } } : {}),
  });
  let seen = 0;
  let id = 0;
  const ref = (chatId: string) => ({ chatId, messageId: String(++id) });
  const ctx = (p: Person, chatId = GROUP) => ({ chatId, chatKind: chatId === GROUP ? ("group" as const) : ("private" as const), sender: userOf(p), message: ref(chatId) });
  return {
    dialect: "telegram",
    capabilities: notifyOnly ? { delete: false, ban: false, mute: false, unmute: false, joins: false } : { delete: true, ban: true, mute: true, unmute: true, joins: true },
    addBotAsAdmin: () => kernel.onBotMembership(GROUP, { isAdmin: true, canDelete: true, canRestrict: true }),
    post: async (from, text) => void (await kernel.onMessage({ ref: ref(GROUP), sender: userOf(from), text })),
    command: async (from, name, args) => void (await kernel.onText(ctx(from), `${spell("telegram", name)} ${args}`.trim())),
    dm: (from, text) => kernel.onPrivateMessage({ ref: ref(userOf(from).id), sender: userOf(from), text }),
    join: (who) => kernel.onJoin({ chatId: GROUP, user: userOf(who) }),
    advance: async (ms) => {
      clock.advance(ms);
      await kernel.tick();
    },
    take: async () => {
      const fresh = chat.calls.slice(seen);
      seen = chat.calls.length;
      return fresh.map((c): Observed => {
        switch (c.op) {
          case "send":
            return { kind: "message", where: c.chatId === GROUP ? "group" : c.chatId.startsWith("-") ? "elsewhere" : "private", text: c.text };
          case "reply":
            return { kind: "message", where: c.to.chatId === GROUP ? "group" : "private", text: c.text };
          case "delete":
            return { kind: "delete" };
          case "ban":
            return { kind: "ban", who: personOf(c.userId) };
          case "restrict":
            return { kind: "mute", who: personOf(c.userId) };
          case "unrestrict":
            return { kind: "unmute", who: personOf(c.userId) };
          case "unban":
            return { kind: "unban", who: personOf(c.userId) };
        }
      });
    },
    close: async () => undefined,
  };
};

conversationContract({ describe, it, expect }, "kernel on the in-memory chat port", referenceDriver(false));
conversationContract({ describe, it, expect }, "kernel on the in-memory chat port, notify only and without joins", referenceDriver(true));
