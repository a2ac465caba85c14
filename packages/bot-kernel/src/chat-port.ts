import type { Reply } from "./reply.js";

/** Ids are strings on every platform (Telegram numbers, Discord snowflakes, Slack ids, phone numbers). */
export interface ChatUser {
  readonly id: string;
  /** Display name as the platform shows it (first + last name on Telegram). */
  readonly name: string;
  /** Without the leading @; absent when the user has none. */
  readonly username?: string;
  readonly isBot?: boolean;
}

export interface MessageRef {
  readonly chatId: string;
  readonly messageId: string;
}

export type MemberStatus = "owner" | "admin" | "member" | "restricted" | "left" | "banned" | "unknown";

export interface ResolvedMember extends ChatUser {
  readonly status: MemberStatus;
}

/** How the kernel names a user in a command argument: an id, or a username. */
export type UserRef = { readonly kind: "id"; readonly id: string } | { readonly kind: "username"; readonly username: string };

/**
 * Everything the kernel asks of a chat platform, and nothing more, so that a new platform is
 * one small adapter. Enforcement calls answer `false` when the platform refused (missing
 * rights, message too old, user is an admin): the kernel then falls back to notifying and
 * says so, instead of failing the whole scan.
 */
export interface ChatPort {
  send(chatId: string, reply: Reply): Promise<void>;
  reply(to: MessageRef, reply: Reply): Promise<void>;
  deleteMessage(ref: MessageRef): Promise<boolean>;
  ban(chatId: string, userId: string): Promise<boolean>;
  /** Mutes a member until the given time (platforms lift it themselves at that time). */
  restrict(chatId: string, userId: string, until: Date): Promise<boolean>;
  /**
   * Lifts a mute before its time (a lockdown ended early, or the platform might not lift it
   * itself). Optional: platforms without it leave mutes to expire on their own.
   */
  unrestrict?(chatId: string, userId: string): Promise<boolean>;
  /** Lifts a ban (an admin's "undo" on a ban the bot made). Optional, like `unrestrict`. */
  unban?(chatId: string, userId: string): Promise<boolean>;
  /** Owner and admins; implementations cache briefly, the kernel calls this often. */
  listAdmins(chatId: string): Promise<readonly ChatUser[]>;
  /** The member's current status, or null when the platform cannot tell (e.g. unknown username). */
  resolveMember(chatId: string, user: UserRef): Promise<ResolvedMember | null>;
}
