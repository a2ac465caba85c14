import type { ChatPort, ChatUser, Clock, MessageRef, Reply, ResolvedMember, UserRef } from "@svc/bot-kernel";
import { ErrorCode, type WebClient } from "@slack/web-api";
import type { Installations } from "./installations.js";
import { renderBlocks } from "./render.js";

/** Chat ids carry the workspace: a Slack channel id alone does not say which token may post there. */
export const chatIdOf = (teamId: string, channelId: string): string => `${teamId}:${channelId}`;

export function splitChatId(chatId: string): { readonly teamId: string; readonly channelId: string } | null {
  const i = chatId.indexOf(":");
  return i > 0 && i < chatId.length - 1 ? { teamId: chatId.slice(0, i), channelId: chatId.slice(i + 1) } : null;
}

/** The Web API's own error code (`not_in_channel`, `channel_not_found`, …), or null for other failures. */
export function platformError(e: unknown): string | null {
  if (typeof e !== "object" || e === null || (e as { code?: unknown }).code !== ErrorCode.PlatformError) return null;
  const data = (e as { data?: { error?: unknown } }).data;
  return typeof data?.error === "string" ? data.error : null;
}

/** Errors that mean "this destination cannot take our message", not a bug: the warning is dropped and logged. */
const UNDELIVERABLE = new Set(["channel_not_found", "is_archived", "not_in_channel", "restricted_action", "cannot_reply_to_message", "team_access_not_granted", "account_inactive", "invalid_auth", "token_revoked"]);

interface Profile {
  readonly user: ChatUser;
  readonly isAdmin: boolean;
}

export interface SlackChatPortOptions {
  readonly clock: Clock;
  /** How long a users.info answer is trusted (names, admin flags). */
  readonly userTtlMs?: number;
  readonly onUndeliverable?: (chatId: string, error: string) => void;
}

/** Where a slash command's replies go: collected and returned in the command's HTTP answer (ephemeral). */
export const COMMAND_REF_PREFIX = "cmd:";

/**
 * The kernel's ChatPort over the Slack Web API. Slack is notify-only: a bot token can delete only
 * its own messages and cannot ban or mute, so those calls answer `false` and the kernel falls back
 * to warning. Warnings are posted as Block Kit in the message's thread, with unfurls off.
 */
export class SlackChatPort implements ChatPort {
  private readonly profiles = new Map<string, { readonly at: number; readonly value: Profile | null }>();
  /** Workspace admins seen so far (users.info said so), per workspace. */
  private readonly admins = new Map<string, Map<string, ChatUser>>();
  private readonly commandReplies = new Map<string, Reply[]>();
  private commandSeq = 0;

  constructor(
    private readonly client: WebClient,
    private readonly installations: Installations,
    private readonly options: SlackChatPortOptions,
  ) {}

  /** Opens a collector for a slash command's replies; `finish` hands them over and closes it. */
  openCommand(chatId: string): { readonly ref: MessageRef; finish(): Reply[] } {
    const id = `${COMMAND_REF_PREFIX}${++this.commandSeq}`;
    this.commandReplies.set(id, []);
    return {
      ref: { chatId, messageId: id },
      finish: () => {
        const r = this.commandReplies.get(id) ?? [];
        this.commandReplies.delete(id);
        return r;
      },
    };
  }

  async send(chatId: string, reply: Reply): Promise<void> {
    await this.post(chatId, reply, undefined);
  }

  async reply(to: MessageRef, reply: Reply): Promise<void> {
    const collector = this.commandReplies.get(to.messageId);
    if (collector) {
      collector.push(reply);
      return;
    }
    if (to.messageId.startsWith(COMMAND_REF_PREFIX)) return this.send(to.chatId, reply);
    await this.post(to.chatId, reply, to.messageId);
  }

  private async post(chatId: string, reply: Reply, threadTs: string | undefined): Promise<void> {
    const where = splitChatId(chatId);
    const inst = where ? await this.installations.find(where.teamId) : null;
    if (!where || !inst) {
      this.options.onUndeliverable?.(chatId, where ? "not_installed" : "unknown_destination");
      return;
    }
    const { text, blocks } = renderBlocks(reply);
    const args = { token: inst.botToken, channel: where.channelId, text, blocks, unfurl_links: false, unfurl_media: false, ...(threadTs ? { thread_ts: threadTs } : {}) };
    try {
      await this.client.chat.postMessage(args);
    } catch (e) {
      const code = platformError(e);
      if (code === "not_in_channel") {
        // Public channels can be joined (channels:join); then the post is tried once more.
        try {
          await this.client.conversations.join({ token: inst.botToken, channel: where.channelId });
          await this.client.chat.postMessage(args);
          return;
        } catch (again) {
          const code2 = platformError(again);
          if (code2 === null) throw again;
          this.options.onUndeliverable?.(chatId, code2);
          return;
        }
      }
      if (code !== null && UNDELIVERABLE.has(code)) {
        this.options.onUndeliverable?.(chatId, code);
        return;
      }
      throw e;
    }
  }

  async deleteMessage(_ref: MessageRef): Promise<boolean> {
    return false;
  }

  async ban(_chatId: string, _userId: string): Promise<boolean> {
    return false;
  }

  async restrict(_chatId: string, _userId: string, _until: Date): Promise<boolean> {
    return false;
  }

  /** Slack has no per-channel admins: the workspace's admins and owners this bot has looked up. */
  async listAdmins(chatId: string): Promise<readonly ChatUser[]> {
    const where = splitChatId(chatId);
    if (!where) return [];
    return [...(this.admins.get(where.teamId)?.values() ?? [])];
  }

  async resolveMember(chatId: string, user: UserRef): Promise<ResolvedMember | null> {
    const where = splitChatId(chatId);
    if (!where || user.kind !== "id") return null;
    const p = await this.profile(where.teamId, user.id);
    return p ? { ...p.user, status: p.isAdmin ? "admin" : "member" } : null;
  }

  /** Name and admin flag of a user (users.info, cached); a fallback with the id as name when Slack will not say. */
  async profile(teamId: string, userId: string): Promise<Profile | null> {
    const key = `${teamId}:${userId}`;
    const now = this.options.clock.now().getTime();
    const hit = this.profiles.get(key);
    if (hit && now - hit.at < (this.options.userTtlMs ?? 600_000)) return hit.value;
    const inst = await this.installations.find(teamId);
    if (!inst) return null;
    let value: Profile | null = null;
    try {
      const r = await this.client.users.info({ token: inst.botToken, user: userId });
      const u = r.user;
      if (u?.id) {
        const name = u.profile?.display_name || u.profile?.real_name || u.real_name || u.name || u.id;
        value = {
          user: { id: u.id, name, ...(u.name ? { username: u.name } : {}), ...(u.is_bot ? { isBot: true } : {}) },
          isAdmin: u.is_admin === true || u.is_owner === true || u.is_primary_owner === true,
        };
      }
    } catch (e) {
      if (platformError(e) === null) throw e;
    }
    this.profiles.set(key, { at: now, value });
    if (this.profiles.size > 50_000) this.profiles.delete(this.profiles.keys().next().value as string);
    const team = this.admins.get(teamId) ?? new Map<string, ChatUser>();
    if (value?.isAdmin) team.set(userId, value.user);
    else team.delete(userId);
    this.admins.set(teamId, team);
    return value;
  }

  /** A workspace was uninstalled: forget what was cached about its people. */
  forgetTeam(teamId: string): void {
    this.admins.delete(teamId);
    for (const k of this.profiles.keys()) if (k.startsWith(`${teamId}:`)) this.profiles.delete(k);
  }
}
