import { STAT_COUNTERS, type StatCounter, type StatIncrement, type Stats, type StatsStore } from "@svc/bot-kernel";
import type { DataSource } from "typeorm";
import type { BotChatStatRow } from "../entities/bot.js";

/** Counters per chat in `bot_chat_stats`, one row per counter, for one platform. */
export class TypeOrmBotStatsStore implements StatsStore {
  constructor(private readonly ds: DataSource, private readonly platform: string) {}

  async add(chatId: string, counter: StatCounter, by = 1): Promise<void> {
    // One atomic upsert: concurrent increments (from any process) wait on the row lock, none is lost.
    await this.ds.manager.query(
      `INSERT INTO bot_chat_stats (platform, chat_id, counter, value) VALUES ($1, $2, $3, $4)
       ON CONFLICT (platform, chat_id, counter) DO UPDATE SET value = bot_chat_stats.value + EXCLUDED.value`,
      [this.platform, chatId, counter, by],
    );
  }

  /** Many increments in one statement (the kernel batches them; at most one per chat and counter). */
  async addMany(increments: readonly StatIncrement[]): Promise<void> {
    if (increments.length === 0) return;
    await this.ds.manager.query(
      `INSERT INTO bot_chat_stats (platform, chat_id, counter, value)
       SELECT $1, x.chat_id, x.counter, x.value FROM unnest($2::text[], $3::text[], $4::bigint[]) AS x(chat_id, counter, value)
       ON CONFLICT (platform, chat_id, counter) DO UPDATE SET value = bot_chat_stats.value + EXCLUDED.value`,
      [this.platform, increments.map((i) => i.chatId), increments.map((i) => i.counter), increments.map((i) => i.by)],
    );
  }

  async get(chatId: string): Promise<Stats> {
    const rows = (await this.ds.manager.query(`SELECT counter, value FROM bot_chat_stats WHERE platform = $1 AND chat_id = $2`, [this.platform, chatId])) as Pick<BotChatStatRow, "counter" | "value">[];
    const stats = Object.fromEntries(STAT_COUNTERS.map((c) => [c, 0])) as Record<StatCounter, number>;
    for (const r of rows) if ((STAT_COUNTERS as readonly string[]).includes(r.counter)) stats[r.counter as StatCounter] = Number(r.value);
    return stats;
  }
}
