import type { ChatUser, MemberDirectory, MemberSeen, SeenMember } from "@svc/bot-kernel";
import type { DataSource } from "typeorm";
import type { BotMemberRow } from "../entities/bot.js";
import { iso } from "./sql.js";

export interface MemberDirectoryOptions {
  /** Members kept per chat, least recently seen evicted first (as the in-memory directory). */
  readonly perChat?: number;
}

/**
 * The members a bot has seen, per chat, in `bot_members`: ids, display names, usernames and
 * whether it is a bot. Nothing else of a user object is read, so nothing else can be stored.
 */
export class TypeOrmBotMemberDirectory implements MemberDirectory {
  private readonly perChat: number;

  constructor(private readonly ds: DataSource, private readonly platform: string, options: MemberDirectoryOptions = {}) {
    this.perChat = options.perChat ?? 10_000;
  }

  async remember(chatId: string, user: ChatUser, at: Date): Promise<boolean> {
    // The previous name comes from the statement's snapshot, so one round trip tells new or changed.
    const [r] = (await this.ds.manager.query(
      `WITH prev AS (SELECT name, username FROM bot_members WHERE platform = $1 AND chat_id = $2 AND user_id = $3)
       INSERT INTO bot_members (platform, chat_id, user_id, name, username, is_bot, last_seen)
       VALUES ($1, $2, $3, $4, $5, $6, $7::timestamptz)
       ON CONFLICT (platform, chat_id, user_id) DO UPDATE SET
         name = EXCLUDED.name, username = EXCLUDED.username, is_bot = EXCLUDED.is_bot, last_seen = EXCLUDED.last_seen
       RETURNING (SELECT count(*) FROM prev)::int AS existed, (SELECT name FROM prev) AS prev_name, (SELECT username FROM prev) AS prev_username`,
      [this.platform, chatId, user.id, user.name, user.username || null, user.isBot === true, at.toISOString()],
    )) as { existed: number; prev_name: string | null; prev_username: string | null }[];
    if (!r || r.existed === 0) {
      await this.evict(chatId);
      return true;
    }
    return r.prev_name !== user.name || r.prev_username !== (user.username || null);
  }

  /** Last-seen times of members already stored, in one statement; a member evicted meanwhile stays out. */
  async touch(seen: readonly MemberSeen[]): Promise<void> {
    if (seen.length === 0) return;
    await this.ds.manager.query(
      `UPDATE bot_members m SET last_seen = GREATEST(m.last_seen, x.at)
         FROM unnest($2::text[], $3::text[], $4::timestamptz[]) AS x(chat_id, user_id, at)
        WHERE m.platform = $1 AND m.chat_id = x.chat_id AND m.user_id = x.user_id`,
      [this.platform, seen.map((s) => s.chatId), seen.map((s) => s.userId), seen.map((s) => s.at.toISOString())],
    );
  }

  /** Keeps the chat within `perChat` members: only a new member can push it over. */
  private async evict(chatId: string): Promise<void> {
    await this.ds.manager.query(
      `DELETE FROM bot_members WHERE platform = $1 AND chat_id = $2 AND user_id IN (
         SELECT user_id FROM bot_members WHERE platform = $1 AND chat_id = $2 ORDER BY last_seen DESC, user_id DESC OFFSET $3)`,
      [this.platform, chatId, this.perChat],
    );
  }

  async list(chatId: string): Promise<readonly SeenMember[]> {
    const rows = (await this.ds.manager.query(
      `SELECT * FROM bot_members WHERE platform = $1 AND chat_id = $2 ORDER BY last_seen, user_id`,
      [this.platform, chatId],
    )) as BotMemberRow[];
    return rows.map(toMember);
  }

  async findByUsername(chatId: string, username: string): Promise<SeenMember | null> {
    const [row] = (await this.ds.manager.query(
      `SELECT * FROM bot_members WHERE platform = $1 AND chat_id = $2 AND lower(username) = lower($3) ORDER BY last_seen DESC, user_id LIMIT 1`,
      [this.platform, chatId, username.replace(/^@/u, "")],
    )) as BotMemberRow[];
    return row ? toMember(row) : null;
  }

  async get(chatId: string, userId: string): Promise<SeenMember | null> {
    const [row] = (await this.ds.manager.query(`SELECT * FROM bot_members WHERE platform = $1 AND chat_id = $2 AND user_id = $3`, [this.platform, chatId, userId])) as BotMemberRow[];
    return row ? toMember(row) : null;
  }
}

function toMember(r: BotMemberRow): SeenMember {
  return {
    id: r.user_id,
    name: r.name,
    ...(r.username !== null ? { username: r.username } : {}),
    ...(r.is_bot ? { isBot: true } : {}),
    lastSeen: iso(r.last_seen),
  };
}
