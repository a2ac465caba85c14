import type { ChatPort, ChatUser, Clock, MemberStatus, MessageRef, Reply, ResolvedMember, UserRef } from "@svc/bot-kernel";
import { GrammyError, type Api } from "grammy";
import type { ChatMember, ChatPermissions, User } from "grammy/types";
import { DeferredCalls, retryAfter } from "./deferred-calls.js";
import { renderReply } from "./render.js";

export const userOf = (u: User): ChatUser => ({
  id: String(u.id),
  name: [u.first_name, u.last_name].filter(Boolean).join(" "),
  ...(u.username ? { username: u.username } : {}),
  ...(u.is_bot ? { isBot: true } : {}),
});

const STATUS: Readonly<Record<ChatMember["status"], MemberStatus>> = {
  creator: "owner",
  administrator: "admin",
  member: "member",
  restricted: "restricted",
  left: "left",
  kicked: "banned",
};

/** Everything off: a muted member can read but not post anything until the lockdown ends. */
const MUTED: ChatPermissions = {
  can_send_messages: false,
  can_send_audios: false,
  can_send_documents: false,
  can_send_photos: false,
  can_send_videos: false,
  can_send_video_notes: false,
  can_send_voice_notes: false,
  can_send_polls: false,
  can_send_other_messages: false,
  can_add_web_page_previews: false,
  can_invite_users: false,
};

/** Everything on: "pass True for all permissions to lift restrictions from a user" (Bot API). */
const UNMUTED: ChatPermissions = {
  ...(Object.fromEntries(Object.keys(MUTED).map((k) => [k, true])) as ChatPermissions),
  can_change_info: true,
  can_pin_messages: true,
  can_manage_topics: true,
};

/**
 * Telegram treats an `until_date` less than 30 seconds ahead (or over 366 days) as "forever":
 * a mute near the end of a lockdown is stretched to this many seconds instead.
 */
export const MIN_RESTRICT_SECONDS = 35;

/** Telegram user ids are positive; chats (channels, groups) posting as themselves have negative ids. */
export const isSenderChat = (id: string): boolean => id.startsWith("-");

/** Bot API refusals that mean "not allowed" (rights, age of the message, target is an admin), not a bug. */
const refused = (e: unknown): boolean => e instanceof GrammyError && (e.error_code === 400 || e.error_code === 403);

export interface TelegramChatPortOptions {
  /** How long an admin list is trusted; short, so a demoted admin loses admin commands quickly. */
  readonly adminTtlMs?: number;
  readonly clock: Clock;
  /** Where calls Telegram asked to wait long for are queued; without it they fail as before. */
  readonly deferred?: DeferredCalls;
}

/** The kernel's ChatPort over the Bot API. */
export class TelegramChatPort implements ChatPort {
  private readonly admins = new Map<string, { readonly at: number; readonly list: readonly ChatUser[] }>();
  private readonly ttl: number;

  constructor(
    private readonly api: Api,
    private readonly options: TelegramChatPortOptions,
  ) {
    this.ttl = options.adminTtlMs ?? 60_000;
  }

  /**
   * Makes a call; when Telegram answers 429 with a wait longer than flood control waits inline,
   * the call is queued for then (`deferred`) and counts as done: the action is not dropped.
   */
  private async orLater(method: string, run: () => Promise<unknown>): Promise<void> {
    try {
      await run();
    } catch (e) {
      const wait = retryAfter(e);
      if (wait === null || !this.options.deferred) throw e;
      this.options.deferred.defer(method, wait, run);
    }
  }

  async send(chatId: string, reply: Reply): Promise<void> {
    const { text, ...other } = renderReply(reply);
    await this.orLater("sendMessage", () => this.api.sendMessage(chatId, text, other));
  }

  async reply(to: MessageRef, reply: Reply): Promise<void> {
    const { text, ...other } = renderReply(reply);
    await this.orLater("sendMessage", () => this.api.sendMessage(to.chatId, text, { ...other, reply_parameters: { message_id: Number(to.messageId), allow_sending_without_reply: true } }));
  }

  async deleteMessage(ref: MessageRef): Promise<boolean> {
    try {
      await this.orLater("deleteMessage", () => this.api.deleteMessage(ref.chatId, Number(ref.messageId)));
      return true;
    } catch (e) {
      if (refused(e)) return false;
      throw e;
    }
  }

  /**
   * Users have positive ids; a negative id is a chat posting as itself (a channel, or another
   * group), which `banChatMember` cannot ban: `banChatSenderChat` bans the channel's posts.
   */
  async ban(chatId: string, userId: string): Promise<boolean> {
    try {
      if (isSenderChat(userId)) await this.orLater("banChatSenderChat", () => this.api.banChatSenderChat(chatId, Number(userId)));
      else await this.orLater("banChatMember", () => this.api.banChatMember(chatId, Number(userId)));
      return true;
    } catch (e) {
      if (refused(e)) return false;
      throw e;
    }
  }

  async unban(chatId: string, userId: string): Promise<boolean> {
    try {
      if (isSenderChat(userId)) await this.orLater("unbanChatSenderChat", () => this.api.unbanChatSenderChat(chatId, Number(userId)));
      // only_if_banned: never kicks a member who is in the group.
      else await this.orLater("unbanChatMember", () => this.api.unbanChatMember(chatId, Number(userId), { only_if_banned: true }));
      return true;
    } catch (e) {
      if (refused(e)) return false;
      throw e;
    }
  }

  async restrict(chatId: string, userId: string, until: Date): Promise<boolean> {
    try {
      // Worked out when the call is made (also when it was deferred), never ahead of time.
      const untilDate = (): number => Math.max(Math.ceil(until.getTime() / 1000), Math.floor(this.options.clock.now().getTime() / 1000) + MIN_RESTRICT_SECONDS);
      await this.orLater("restrictChatMember", () => this.api.restrictChatMember(chatId, Number(userId), MUTED, { until_date: untilDate(), use_independent_chat_permissions: true }));
      return true;
    } catch (e) {
      if (refused(e)) return false;
      throw e;
    }
  }

  async unrestrict(chatId: string, userId: string): Promise<boolean> {
    try {
      await this.orLater("restrictChatMember", () => this.api.restrictChatMember(chatId, Number(userId), UNMUTED, { use_independent_chat_permissions: true }));
      return true;
    } catch (e) {
      if (refused(e)) return false;
      throw e;
    }
  }

  async listAdmins(chatId: string): Promise<readonly ChatUser[]> {
    const now = this.options.clock.now().getTime();
    const hit = this.admins.get(chatId);
    if (hit && now - hit.at < this.ttl) return hit.list;
    let list: readonly ChatUser[];
    try {
      list = (await this.api.getChatAdministrators(chatId)).map((m) => userOf(m.user));
    } catch (e) {
      // Private chats have no administrators; neither does a chat we were removed from.
      if (refused(e)) list = [];
      else throw e;
    }
    this.admins.set(chatId, { at: now, list });
    if (this.admins.size > 10_000) this.admins.delete(this.admins.keys().next().value as string);
    return list;
  }

  /** Forget a chat's admins (someone was promoted or demoted). */
  invalidateAdmins(chatId: string): void {
    this.admins.delete(chatId);
  }

  async resolveMember(chatId: string, user: UserRef): Promise<ResolvedMember | null> {
    // The Bot API cannot look up a username; the kernel maps usernames it has seen to ids first.
    if (user.kind !== "id") return null;
    try {
      const m = await this.api.getChatMember(chatId, Number(user.id));
      return { ...userOf(m.user), status: STATUS[m.status] };
    } catch (e) {
      if (refused(e)) return null;
      throw e;
    }
  }
}
