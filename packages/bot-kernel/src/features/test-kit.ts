import type { ChatUser } from "../chat-port.js";
import { InMemoryChatPort } from "../in-memory-chat-port.js";
import { InMemoryScreening } from "../in-memory-screening.js";
import { InMemorySettingsStore } from "../in-memory-settings-store.js";
import { InMemoryStatsStore } from "../in-memory-stats-store.js";
import { ManualClock } from "../manual-clock.js";
import { Monitor } from "../monitoring.js";
import { plainText, type Block, type Reply } from "../reply.js";
import { defaultSettings, type ChatSettings } from "../settings.js";
import { VerdictCache } from "../verdict-cache.js";
import type { CommandContext, CommandRun, KernelServices } from "./feature.js";

/**
 * The shared services over in-memory parts, for testing one feature module on its own: build
 * the module with `services` and its own ports (`stats` is the one enforcement counts in), then call its commands and hooks directly.
 */
export function featureKit(group = "-100200", admins: ChatUser[] = [{ id: "1", name: "Alice Walker", username: "alice_w" }]) {
  const clock = new ManualClock("2026-03-02T09:00:00.000Z");
  const chat = new InMemoryChatPort().setAdmins(group, admins);
  const screening = new InMemoryScreening().set("paypa1.com", "critical", "Looks like paypal.com");
  const settings = new InMemorySettingsStore();
  const cache = new VerdictCache(screening, clock);
  const isAdmin = async (chatId: string, userId: string): Promise<boolean> => (await chat.listAdmins(chatId)).some((a) => a.id === userId);
  const capabilities = { delete: true, ban: true, restrict: true };
  const stats = new InMemoryStatsStore();
  const monitor = new Monitor({ chat, cache, stats, clock, capabilities, maxEntities: 50, appealCommand: (e) => `/report ${e} false_positive`, isAdmin });
  const settingsFor = async (chatId: string): Promise<ChatSettings> => (await settings.get(chatId)) ?? defaultSettings(chatId, "test", clock.now());
  const services: KernelServices = {
    platform: "test",
    dialect: "telegram",
    clock,
    chat,
    capabilities,
    monitor,
    cache,
    botName: "svc",
    settingsFor,
    save: async (s) => {
      const saved = { ...s, updatedAt: clock.now().toISOString() };
      await settings.save(saved);
      return saved;
    },
    log: (s, e) => monitor.log(s, e),
    alertAdmins: async () => undefined,
    isAdmin,
    offers: () => true,
  };
  /** A command run in the group (or a DM) whose replies are collected as plain text. */
  const run = async (sender: ChatUser, chatId = group): Promise<CommandRun & { readonly replies: string[] }> => {
    const replies: string[] = [];
    const ctx: CommandContext = { chatId, chatKind: chatId.startsWith("-") ? "group" : "private", sender, message: { chatId, messageId: "7" } };
    const respond = async (r: Reply): Promise<void> => {
      replies.push(plainText(r));
    };
    return { ctx, settings: await settingsFor(chatId), now: clock.now(), respond, say: (...blocks: Block[]) => respond({ blocks }), replies };
  };
  return { services, clock, chat, screening, settings, stats, cache, run, group };
}
