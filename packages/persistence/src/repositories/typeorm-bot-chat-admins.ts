import type { ChatUser } from "@svc/bot-kernel";
import type { DataSource } from "typeorm";
import type { BotChatAdminRow } from "../entities/bot.js";
import { iso } from "./sql.js";

export interface ChatAdmin extends ChatUser {
  readonly role: "owner" | "admin";
  readonly addedBy: string | null;
  readonly addedAt: string;
}

export type AddAdminResult = "added" | "exists" | "full";

/**
 * A group's admins as the bot keeps them (`bot_chat_admins`), for platforms where a bot cannot
 * read the group's own admin list (WhatsApp Cloud API). The first to claim a group becomes its
 * one owner; the partial unique index makes that claim atomic across processes.
 */
export class TypeOrmBotChatAdmins {
  constructor(
    private readonly ds: DataSource,
    private readonly platform: string,
    private readonly perChat = 50,
  ) {}

  async list(chatId: string): Promise<readonly ChatAdmin[]> {
    const rows = (await this.ds.manager.query(
      `SELECT * FROM bot_chat_admins WHERE platform = $1 AND chat_id = $2 ORDER BY (role = 'owner') DESC, added_at, user_id`,
      [this.platform, chatId],
    )) as BotChatAdminRow[];
    return rows.map((r) => ({ id: r.user_id, name: r.name, role: r.role, addedBy: r.added_by, addedAt: iso(r.added_at) }));
  }

  /** Makes `user` the group's owner unless it already has one; true when this call won. */
  async claimOwner(chatId: string, user: ChatUser, at: Date): Promise<boolean> {
    const rows = (await this.ds.manager.query(
      `INSERT INTO bot_chat_admins (platform, chat_id, user_id, name, role, added_by, added_at)
       VALUES ($1, $2, $3, $4, 'owner', NULL, $5::timestamptz)
       ON CONFLICT DO NOTHING RETURNING user_id`,
      [this.platform, chatId, user.id, user.name, at.toISOString()],
    )) as unknown[];
    return rows.length === 1;
  }

  async add(chatId: string, user: ChatUser, by: string, at: Date): Promise<AddAdminResult> {
    // The bound is checked in the statement itself, so concurrent adds cannot overshoot it by much.
    const rows = (await this.ds.manager.query(
      `INSERT INTO bot_chat_admins (platform, chat_id, user_id, name, role, added_by, added_at)
       SELECT $1, $2, $3, $4, 'admin', $5, $6::timestamptz
       WHERE (SELECT count(*) FROM bot_chat_admins WHERE platform = $1 AND chat_id = $2) < $7
       ON CONFLICT (platform, chat_id, user_id) DO NOTHING RETURNING user_id`,
      [this.platform, chatId, user.id, user.name, by, at.toISOString(), this.perChat],
    )) as unknown[];
    if (rows.length === 1) return "added";
    const [exists] = (await this.ds.manager.query(`SELECT 1 FROM bot_chat_admins WHERE platform = $1 AND chat_id = $2 AND user_id = $3`, [this.platform, chatId, user.id])) as unknown[];
    return exists ? "exists" : "full";
  }
}
