import type { ChatPort, ChatUser, MessageRef, ResolvedMember, UserRef } from "./chat-port.js";
import { plainText, type Reply } from "./reply.js";

export type ChatCall =
  | { readonly op: "send"; readonly chatId: string; readonly reply: Reply; readonly text: string }
  | { readonly op: "reply"; readonly to: MessageRef; readonly reply: Reply; readonly text: string }
  | { readonly op: "delete"; readonly ref: MessageRef }
  | { readonly op: "ban"; readonly chatId: string; readonly userId: string }
  | { readonly op: "restrict"; readonly chatId: string; readonly userId: string; readonly until: string }
  | { readonly op: "unrestrict"; readonly chatId: string; readonly userId: string }
  | { readonly op: "unban"; readonly chatId: string; readonly userId: string };

/**
 * A chat platform in memory: admins per chat, members, and a log of every call the kernel
 * made, for kernel tests and for running the kernel without a platform.
 */
export class InMemoryChatPort implements ChatPort {
  readonly calls: ChatCall[] = [];
  private readonly admins = new Map<string, ChatUser[]>();
  private readonly members = new Map<string, Map<string, ResolvedMember>>();
  /** Operations the "platform" refuses, to exercise fallbacks (e.g. no delete rights). */
  readonly refuse = new Set<"delete" | "ban" | "restrict">();

  setAdmins(chatId: string, admins: ChatUser[]): this {
    this.admins.set(chatId, admins);
    for (const a of admins) this.addMember(chatId, { ...a, status: "admin" });
    return this;
  }

  addMember(chatId: string, m: ResolvedMember): this {
    let ms = this.members.get(chatId);
    if (!ms) this.members.set(chatId, (ms = new Map()));
    ms.set(m.id, m);
    return this;
  }

  async send(chatId: string, reply: Reply): Promise<void> {
    this.calls.push({ op: "send", chatId, reply, text: plainText(reply) });
  }

  async reply(to: MessageRef, reply: Reply): Promise<void> {
    this.calls.push({ op: "reply", to, reply, text: plainText(reply) });
  }

  async deleteMessage(ref: MessageRef): Promise<boolean> {
    if (this.refuse.has("delete")) return false;
    this.calls.push({ op: "delete", ref });
    return true;
  }

  async ban(chatId: string, userId: string): Promise<boolean> {
    if (this.refuse.has("ban")) return false;
    this.calls.push({ op: "ban", chatId, userId });
    const m = this.members.get(chatId)?.get(userId);
    if (m) this.addMember(chatId, { ...m, status: "banned" });
    return true;
  }

  async restrict(chatId: string, userId: string, until: Date): Promise<boolean> {
    if (this.refuse.has("restrict")) return false;
    this.calls.push({ op: "restrict", chatId, userId, until: until.toISOString() });
    return true;
  }

  async unrestrict(chatId: string, userId: string): Promise<boolean> {
    if (this.refuse.has("restrict")) return false;
    this.calls.push({ op: "unrestrict", chatId, userId });
    return true;
  }

  async unban(chatId: string, userId: string): Promise<boolean> {
    if (this.refuse.has("ban")) return false;
    this.calls.push({ op: "unban", chatId, userId });
    return true;
  }

  async listAdmins(chatId: string): Promise<readonly ChatUser[]> {
    return this.admins.get(chatId) ?? [];
  }

  async resolveMember(chatId: string, user: UserRef): Promise<ResolvedMember | null> {
    for (const m of this.members.get(chatId)?.values() ?? []) {
      if (user.kind === "id" ? m.id === user.id : m.username?.toLowerCase() === user.username) return m;
    }
    return null;
  }

  /** Texts sent or replied, in order. */
  texts(): string[] {
    return this.calls.flatMap((c) => (c.op === "send" || c.op === "reply" ? [c.text] : []));
  }

  clear(): void {
    this.calls.length = 0;
  }
}
