import type { ChatUser } from "./chat-port.js";
import type { MemberDirectory, SeenMember } from "./ports.js";

/**
 * Seen members per chat, least recently seen evicted first: ids, names and usernames only.
 * Bounded per chat and in the number of chats, so a bot in many large groups stays small.
 */
export class InMemoryMemberDirectory implements MemberDirectory {
  private readonly chats = new Map<string, Map<string, SeenMember>>();

  constructor(
    private readonly perChat = 10_000,
    private readonly maxChats = 10_000,
  ) {}

  async remember(chatId: string, user: ChatUser, at: Date): Promise<boolean> {
    let members = this.chats.get(chatId);
    if (!members) {
      members = new Map();
      this.chats.set(chatId, members);
      while (this.chats.size > this.maxChats) this.chats.delete(this.chats.keys().next().value as string);
    }
    const before = members.get(user.id);
    const seen: SeenMember = { id: user.id, name: user.name, lastSeen: at.toISOString(), ...(user.username ? { username: user.username } : {}), ...(user.isBot ? { isBot: true } : {}) };
    members.delete(user.id);
    members.set(user.id, seen);
    while (members.size > this.perChat) members.delete(members.keys().next().value as string);
    return !before || before.name !== user.name || before.username !== user.username;
  }

  async list(chatId: string): Promise<readonly SeenMember[]> {
    return [...(this.chats.get(chatId)?.values() ?? [])];
  }

  async findByUsername(chatId: string, username: string): Promise<SeenMember | null> {
    const u = username.replace(/^@/u, "").toLowerCase();
    for (const m of this.chats.get(chatId)?.values() ?? []) if (m.username?.toLowerCase() === u) return m;
    return null;
  }

  async get(chatId: string, userId: string): Promise<SeenMember | null> {
    return this.chats.get(chatId)?.get(userId) ?? null;
  }

  dump(): ReadonlyMap<string, ReadonlyMap<string, SeenMember>> {
    return this.chats;
  }
}
