import { describe, expect, it } from "vitest";
import type { DataSource } from "typeorm";
// Test-only module (imported by *.test.ts, not exported by the package): the bot store contracts live in @svc/bot-kernel.
import { botStoreContracts, defaultSettings, fresh, type BotStoreFixture } from "@svc/bot-kernel";
import { BOT_TABLES } from "./entities/bot.js";
import { TypeOrmBotMemberDirectory } from "./repositories/typeorm-bot-member-directory.js";
import { TypeOrmBotPaymentLedger } from "./repositories/typeorm-bot-payment-ledger.js";
import { TypeOrmBotSettingsStore } from "./repositories/typeorm-bot-settings-store.js";
import { TypeOrmBotStatsStore } from "./repositories/typeorm-bot-stats-store.js";
import { TypeOrmBotSupportDesk } from "./repositories/typeorm-bot-support-desk.js";
import { TypeOrmBotChatAdmins } from "./repositories/typeorm-bot-chat-admins.js";
import { TypeOrmBotSeenEvents } from "./repositories/typeorm-bot-seen-events.js";

/** Every row of every table of the schema, as text: what a privacy scan must search. */
export async function dumpAllTables(ds: DataSource): Promise<{ tables: string[]; text: string }> {
  const tables = ((await ds.query(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`,
  )) as { table_name: string }[]).map((r) => r.table_name);
  const parts: string[] = [];
  for (const t of tables) {
    const [row] = (await ds.query(`SELECT coalesce(json_agg(x)::text, '[]') AS rows FROM "${t.replaceAll('"', '""')}" x`)) as { rows: string }[];
    parts.push(`${t}: ${row?.rows ?? "[]"}`);
  }
  return { tables, text: parts.join("\n") };
}

export function typeOrmBotFixture(ds: DataSource): BotStoreFixture {
  return {
    stores: (platform) => ({
      settings: new TypeOrmBotSettingsStore(ds, platform),
      stats: new TypeOrmBotStatsStore(ds, platform),
      members: new TypeOrmBotMemberDirectory(ds, platform),
      ledger: new TypeOrmBotPaymentLedger(ds),
      support: new TypeOrmBotSupportDesk(ds),
    }),
    async dump() {
      const { tables, text } = await dumpAllTables(ds);
      for (const t of BOT_TABLES) if (!tables.includes(t)) throw new Error(`table ${t} is missing from the scan`);
      return text;
    },
  };
}

/**
 * The bot kernel's store contracts against the TypeORM adapters on one shared DataSource (read
 * when a test starts), plus what only the database adapters promise.
 */
export function typeOrmBotContracts(engine: string, ds: () => DataSource): void {
  botStoreContracts({ describe, it, expect }, engine, async () => typeOrmBotFixture(ds()));

  describe(`bot store adapters: ${engine}`, () => {
    it("keeps at most perChat members per chat, evicting the least recently seen", async () => {
      const members = new TypeOrmBotMemberDirectory(ds(), "bounded", { perChat: 3 });
      const chat = fresh("chat");
      for (let i = 0; i < 5; i++) await members.remember(chat, { id: `u${i}`, name: `User ${i}` }, new Date(Date.UTC(2026, 2, 2, 9, i)));
      expect((await members.list(chat)).map((m) => m.id)).toEqual(["u2", "u3", "u4"]);
      // Seeing u2 again makes it the most recent: the next newcomer evicts u3.
      await members.remember(chat, { id: "u2", name: "User 2" }, new Date(Date.UTC(2026, 2, 2, 10)));
      await members.remember(chat, { id: "u9", name: "User 9" }, new Date(Date.UTC(2026, 2, 2, 11)));
      expect((await members.list(chat)).map((m) => m.id)).toEqual(["u4", "u2", "u9"]);
    });

    it("gives a group one owner even when several claim it at once, then bounded admins", async () => {
      const admins = new TypeOrmBotChatAdmins(ds(), "whatsapp", 3);
      const other = new TypeOrmBotChatAdmins(ds(), "slack", 3);
      const chat = fresh("group");
      const at = new Date("2026-03-02T09:00:00Z");
      const wins = await Promise.all(["a", "b", "c", "d"].map((id) => admins.claimOwner(chat, { id, name: id.toUpperCase() }, at)));
      expect(wins.filter(Boolean)).toHaveLength(1);
      const owner = (await admins.list(chat))[0];
      expect(owner?.role).toBe("owner");
      expect(await admins.claimOwner(chat, { id: "z", name: "Z" }, at)).toBe(false);
      expect(await admins.add(chat, { id: "x", name: "X" }, owner?.id ?? "", at)).toBe("added");
      expect(await admins.add(chat, { id: "x", name: "X" }, owner?.id ?? "", at)).toBe("exists");
      expect(await admins.add(chat, { id: "y", name: "Y" }, owner?.id ?? "", at)).toBe("added");
      expect(await admins.add(chat, { id: "w", name: "W" }, owner?.id ?? "", at)).toBe("full");
      expect((await admins.list(chat)).map((a) => a.role)).toEqual(["owner", "admin", "admin"]);
      // Another platform's chat of the same id is another chat.
      expect(await other.list(chat)).toEqual([]);
    });

    it("sees an event id once, also when it is redelivered concurrently, and prunes by age", async () => {
      const seen = new TypeOrmBotSeenEvents(ds(), "whatsapp");
      const id = fresh("wamid");
      const firsts = await Promise.all(Array.from({ length: 5 }, () => seen.firstSight(id, new Date("2026-03-01T00:00:00Z"))));
      expect(firsts.filter(Boolean)).toHaveLength(1);
      expect(await new TypeOrmBotSeenEvents(ds(), "slack").firstSight(id, new Date())).toBe(true);
      expect(await seen.prune(new Date("2026-03-02T00:00:00Z"))).toBeGreaterThanOrEqual(1);
      expect(await seen.firstSight(id, new Date("2026-03-03T00:00:00Z"))).toBe(true);
    });

    it("adds a batch of counters in one statement, to rows that exist and rows that do not", async () => {
      const stats = new TypeOrmBotStatsStore(ds(), "batched");
      const [a, b] = [fresh("chat"), fresh("chat")];
      await stats.add(a, "messages_scanned", 5);
      await stats.addMany([
        { chatId: a, counter: "messages_scanned", by: 1000 },
        { chatId: a, counter: "deletions", by: 2 },
        { chatId: b, counter: "messages_scanned", by: 7 },
      ]);
      await stats.addMany([]);
      expect(await stats.get(a)).toMatchObject({ messages_scanned: 1005, deletions: 2, bans: 0 });
      expect((await stats.get(b)).messages_scanned).toBe(7);
      expect((await new TypeOrmBotStatsStore(ds(), "other").get(a)).messages_scanned).toBe(0);
    });

    it("touches last-seen times of stored members only: never adds one, never goes back in time, never renames", async () => {
      const members = new TypeOrmBotMemberDirectory(ds(), "touched");
      const chat = fresh("chat");
      await members.remember(chat, { id: "u1", name: "Ann" }, new Date("2026-03-02T09:00:00Z"));
      await members.remember(chat, { id: "u2", name: "Bob" }, new Date("2026-03-02T12:00:00Z"));
      await members.touch([
        { chatId: chat, userId: "u1", at: new Date("2026-03-02T10:00:00Z") },
        { chatId: chat, userId: "u2", at: new Date("2026-03-02T11:00:00Z") },
        { chatId: chat, userId: "ghost", at: new Date("2026-03-02T10:00:00Z") },
      ]);
      expect((await members.list(chat)).map((m) => [m.id, m.name, m.lastSeen])).toEqual([
        ["u1", "Ann", "2026-03-02T10:00:00.000Z"],
        ["u2", "Bob", "2026-03-02T12:00:00.000Z"],
      ]);
    });

    it("raises a chat's settings version on every write, whoever writes the row", async () => {
      const store = new TypeOrmBotSettingsStore(ds(), "versioned");
      const chat = fresh("chat");
      expect(await store.version(chat)).toBe(0);
      const s = defaultSettings(chat, "versioned", new Date("2026-03-02T09:00:00Z"));
      await store.save(s);
      const v1 = await store.version(chat);
      expect(v1).toBeGreaterThan(0);
      // The same settings saved again, at the same time: still a new version.
      await store.save(s);
      const v2 = await store.version(chat);
      expect(v2).toBeGreaterThan(v1);
      // Another writer (billing, account deletion) updating the row directly.
      await ds().query(`UPDATE bot_chat_settings SET plan_tier = 'pro' WHERE platform = 'versioned' AND chat_id = $1`, [chat]);
      expect(await store.version(chat)).toBeGreaterThan(v2);
    });

    it("refuses settings of another platform", async () => {
      const store = new TypeOrmBotSettingsStore(ds(), "telegram");
      await expect(store.save(defaultSettings(fresh("chat"), "discord", new Date()))).rejects.toThrow(/platform/u);
    });

    it("has no column that could hold a message's text", async () => {
      const cols = (await ds().query(
        `SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ANY($1) ORDER BY table_name, ordinal_position`,
        [[...BOT_TABLES]],
      )) as { table_name: string; column_name: string }[];
      const textLike = cols.filter((c) => /text|message|content|body|caption/u.test(c.column_name)).map((c) => `${c.table_name}.${c.column_name}`);
      // The text columns: what a user chose to send to support, and what an operator answered.
      expect(textLike).toEqual(["bot_support_replies.text", "bot_support_tickets.text"]);
    });
  });
}
