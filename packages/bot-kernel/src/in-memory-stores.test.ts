import { describe, expect, it } from "vitest";
import { botStoreContracts, type BotStoreFixture } from "./contracts/index.js";
import { InMemoryMemberDirectory } from "./in-memory-member-directory.js";
import { InMemoryPaymentLedger } from "./in-memory-payment-ledger.js";
import { InMemorySettingsStore } from "./in-memory-settings-store.js";
import { InMemoryStatsStore } from "./in-memory-stats-store.js";
import { InMemorySupportDesk } from "./in-memory-support-desk.js";

/** One set of in-memory stores per platform, as one bot process per platform would hold. */
function inMemoryStores(): BotStoreFixture {
  const platforms = new Map<string, { settings: InMemorySettingsStore; stats: InMemoryStatsStore; members: InMemoryMemberDirectory; ledger: InMemoryPaymentLedger; support: InMemorySupportDesk }>();
  return {
    stores(platform) {
      let s = platforms.get(platform);
      if (!s) {
        const settings = new InMemorySettingsStore();
        s = { settings, stats: new InMemoryStatsStore(), members: new InMemoryMemberDirectory(), ledger: new InMemoryPaymentLedger(settings), support: new InMemorySupportDesk() };
        platforms.set(platform, s);
      }
      return s;
    },
    async dump() {
      return JSON.stringify(
        [...platforms.values()].map((s) => ({
          settings: s.settings.dump(),
          stats: [...s.stats.dump()],
          members: [...s.members.dump()].map(([chat, m]) => [chat, [...m.values()]]),
          payments: s.ledger.dump(),
          tickets: s.support.tickets,
        })),
      );
    },
  };
}

botStoreContracts({ describe, it, expect }, "in memory", async () => inMemoryStores());
