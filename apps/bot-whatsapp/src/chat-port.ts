import type { ChatPort, ChatUser, MessageRef, Reply, ResolvedMember, UserRef } from "@svc/bot-kernel";
import type { WhatsAppSender, Recipient } from "./outbound.js";
import { renderText } from "./render.js";

/** Group chats are keyed `group:<group_id>`; a private chat is the user's own id (alerts to "me" go there). */
export const GROUP_PREFIX = "group:";
export const groupChatId = (groupId: string): string => `${GROUP_PREFIX}${groupId}`;
export const recipientOf = (chatId: string): Recipient => (chatId.startsWith(GROUP_PREFIX) ? { group: chatId.slice(GROUP_PREFIX.length) } : { phone: chatId });

/** A group's admins as the bot keeps them (a TypeORM adapter in production). */
export interface GroupAdmins {
  list(chatId: string): Promise<readonly (ChatUser & { readonly role: "owner" | "admin" })[]>;
  claimOwner(chatId: string, user: ChatUser, at: Date): Promise<boolean>;
  add(chatId: string, user: ChatUser, by: string, at: Date): Promise<"added" | "exists" | "full">;
}

/**
 * The kernel's ChatPort on the WhatsApp Cloud API. The Cloud API can neither delete others'
 * messages nor remove or mute members of a group the bot did not create, so enforcement answers
 * "refused" and the kernel notifies instead (notify-only platform). A bot cannot read a group's
 * admin list either: admins are the bot's own (first connector, then `!svc admin add`).
 */
export class WhatsAppChatPort implements ChatPort {
  constructor(
    private readonly sender: WhatsAppSender,
    private readonly admins: GroupAdmins,
  ) {}

  async send(chatId: string, reply: Reply): Promise<void> {
    await this.sender.send(recipientOf(chatId), renderText(reply));
  }

  async reply(to: MessageRef, reply: Reply): Promise<void> {
    await this.sender.send(recipientOf(to.chatId), renderText(reply), to.messageId);
  }

  async deleteMessage(): Promise<boolean> {
    return false;
  }

  async ban(): Promise<boolean> {
    return false;
  }

  async restrict(): Promise<boolean> {
    return false;
  }

  async listAdmins(chatId: string): Promise<readonly ChatUser[]> {
    if (!chatId.startsWith(GROUP_PREFIX)) return [];
    return (await this.admins.list(chatId)).map(({ id, name }) => ({ id, name }));
  }

  async resolveMember(chatId: string, user: UserRef): Promise<ResolvedMember | null> {
    if (user.kind !== "id" || !chatId.startsWith(GROUP_PREFIX)) return null;
    const admin = (await this.admins.list(chatId)).find((a) => a.id === user.id);
    return admin ? { id: admin.id, name: admin.name, status: admin.role } : null;
  }
}
