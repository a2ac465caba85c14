import type { ChatSettings, SettingsStore } from "@svc/bot-kernel";
import type { DataSource } from "typeorm";
import type { BotChatSettingsRow } from "../entities/bot.js";
import { selectSettings, toSettings, upsertSettings } from "./bot-settings-rows.js";

/**
 * Per-chat bot settings in `bot_chat_settings`, for one platform (the port speaks of chat ids
 * only; the same id on two platforms is two chats). `save` replaces the chat's whole record.
 */
export class TypeOrmBotSettingsStore implements SettingsStore {
  constructor(private readonly ds: DataSource, private readonly platform: string) {}

  get(chatId: string): Promise<ChatSettings | null> {
    return selectSettings(this.ds.manager, this.platform, chatId);
  }

  async save(settings: ChatSettings): Promise<void> {
    if (settings.platform !== this.platform) throw new Error(`settings of platform "${settings.platform}" given to the "${this.platform}" store`);
    await upsertSettings(this.ds.manager, settings);
  }

  /** The row's version (raised by a trigger on every update, by any writer); 0 when the chat has no settings. */
  async version(chatId: string): Promise<number> {
    const [row] = (await this.ds.manager.query(`SELECT version FROM bot_chat_settings WHERE platform = $1 AND chat_id = $2`, [this.platform, chatId])) as { version: string | number }[];
    return row ? Number(row.version) : 0;
  }

  async due(now: Date): Promise<readonly ChatSettings[]> {
    // Two index range scans (partial indexes on each deadline).
    const rows = (await this.ds.manager.query(
      `SELECT * FROM bot_chat_settings WHERE platform = $1 AND lockdown_until <= $2
       UNION
       SELECT * FROM bot_chat_settings WHERE platform = $1 AND learn_until <= $2`,
      [this.platform, now],
    )) as BotChatSettingsRow[];
    return rows.map(toSettings);
  }
}
