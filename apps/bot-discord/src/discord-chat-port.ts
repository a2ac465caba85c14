import { AsyncLocalStorage } from "node:async_hooks";
import type { ChatPort, ChatUser, Clock, MessageRef, Reply, ResolvedMember, UserRef } from "@svc/bot-kernel";
import { DiscordAPIError, PermissionFlagsBits, type ChatInputCommandInteraction, type Client, type Guild, type GuildMember, type User } from "discord.js";
import { EPHEMERAL, renderReply } from "./render.js";

export const userOf = (u: User, member?: GuildMember | null): ChatUser => ({
  id: u.id,
  name: member?.displayName ?? u.globalName ?? u.username,
  username: u.username,
  ...(u.bot ? { isBot: true } : {}),
});

/** Permissions that make a member one of the server's admins for the kernel (/audit, /verify, policy). */
export const ADMIN_PERMISSIONS = PermissionFlagsBits.Administrator | PermissionFlagsBits.ManageGuild;

/**
 * The kernel keys settings by server (`chatId` = guild id): policy, plan, anti-raid and members
 * are server-wide on Discord. A message is addressed as `channelId:messageId`, and a slash
 * command as `interaction:<id>` so that replies to it go back as the ephemeral interaction reply.
 */
export const messageRef = (guildId: string, channelId: string, messageId: string): MessageRef => ({ chatId: guildId, messageId: `${channelId}:${messageId}` });
export const interactionRef = (guildId: string, interactionId: string): MessageRef => ({ chatId: guildId, messageId: `interaction:${interactionId}` });

interface Scope {
  readonly guildId: string;
  /** Where the event happened: a kernel post "to the server" lands here, next to what it is about. */
  readonly channelId: string;
}

/** Discord refusals that mean "not allowed / gone" (rights, hierarchy, unknown message), not a bug. */
const refused = (e: unknown): boolean => e instanceof DiscordAPIError && (e.status === 403 || e.status === 404);

export interface DiscordChatPortOptions {
  readonly clock: Clock;
  /** How long a server's admin list is trusted. */
  readonly adminTtlMs?: number;
}

/** The kernel's ChatPort over discord.js. */
export class DiscordChatPort implements ChatPort {
  private readonly scope = new AsyncLocalStorage<Scope>();
  private readonly interactions = new Map<string, { readonly interaction: ChatInputCommandInteraction; answered: boolean }>();
  private readonly admins = new Map<string, { readonly at: number; readonly list: readonly ChatUser[] }>();
  private readonly ttl: number;

  constructor(
    private readonly client: Client,
    private readonly options: DiscordChatPortOptions,
  ) {
    this.ttl = options.adminTtlMs ?? 60_000;
  }

  /** Runs kernel work for an event in a channel: the kernel's posts to the server go to that channel. */
  inChannel<T>(guildId: string, channelId: string, fn: () => Promise<T>): Promise<T> {
    return this.scope.run({ guildId, channelId }, fn);
  }

  /** Runs a slash command: replies to `interactionRef(...)` become the (deferred, ephemeral) interaction reply. */
  async forInteraction<T>(interaction: ChatInputCommandInteraction, fn: (ref: MessageRef) => Promise<T>): Promise<T> {
    const guildId = interaction.guildId ?? interaction.channelId;
    const ref = interactionRef(guildId, interaction.id);
    this.interactions.set(interaction.id, { interaction, answered: false });
    try {
      return await this.inChannel(guildId, interaction.channelId, () => fn(ref));
    } finally {
      this.interactions.delete(interaction.id);
    }
  }

  async send(chatId: string, reply: Reply): Promise<void> {
    const target = await this.channelFor(chatId);
    if (!target) throw new Error(`no channel to post in for ${chatId}`);
    await target.send(renderReply(reply));
  }

  async reply(to: MessageRef, reply: Reply): Promise<void> {
    const r = renderReply(reply);
    if (to.messageId.startsWith("interaction:")) {
      const pending = this.interactions.get(to.messageId.slice("interaction:".length));
      if (!pending) throw new Error(`interaction ${to.messageId} is no longer open`);
      const { interaction } = pending;
      // Every reply to a command is ephemeral (SPEC): only the caller sees it.
      if (!pending.answered && (interaction.deferred || interaction.replied)) await interaction.editReply({ content: r.content, allowedMentions: r.allowedMentions, ...(r.components ? { components: r.components } : {}) });
      else if (!pending.answered) await interaction.reply({ ...r, flags: r.flags | EPHEMERAL });
      else await interaction.followUp({ ...r, flags: r.flags | EPHEMERAL });
      pending.answered = true;
      return;
    }
    const [channelId, messageId] = to.messageId.split(":") as [string, string];
    const channel = await this.client.channels.fetch(channelId);
    if (!channel?.isSendable()) throw new Error(`cannot post in channel ${channelId}`);
    await channel.send({ ...r, reply: { messageReference: messageId, failIfNotExists: false } });
  }

  async deleteMessage(ref: MessageRef): Promise<boolean> {
    // A slash command's options were seen only by the bot: there is no message to take down.
    if (ref.messageId.startsWith("interaction:")) return false;
    const [channelId, messageId] = ref.messageId.split(":") as [string, string];
    const guild = this.client.guilds.cache.get(ref.chatId);
    const channel = guild?.channels.cache.get(channelId);
    const me = guild?.members.me;
    if (!guild || !channel || !me || !channel.isTextBased()) return false;
    // Checked first so a missing right is a clean "no" rather than a 403 round trip.
    if (!channel.permissionsFor(me).has(PermissionFlagsBits.ManageMessages)) return false;
    try {
      await channel.messages.delete(messageId);
      return true;
    } catch (e) {
      if (refused(e)) return false;
      throw e;
    }
  }

  async ban(chatId: string, userId: string): Promise<boolean> {
    const guild = this.client.guilds.cache.get(chatId);
    const me = guild?.members.me;
    if (!guild || !me?.permissions.has(PermissionFlagsBits.BanMembers) || userId === guild.ownerId) return false;
    const member = await this.member(guild, userId);
    // Role hierarchy: a member whose highest role is at or above the bot's cannot be banned by it.
    if (member && !member.bannable) return false;
    try {
      await guild.members.ban(userId, { deleteMessageSeconds: 3600, reason: "svc: risky content (see the channel notice)" });
      return true;
    } catch (e) {
      if (refused(e)) return false;
      throw e;
    }
  }

  /** A Discord timeout (at most 28 days): the member can read but not post until it ends. */
  async restrict(chatId: string, userId: string, until: Date): Promise<boolean> {
    const guild = this.client.guilds.cache.get(chatId);
    if (!guild?.members.me?.permissions.has(PermissionFlagsBits.ModerateMembers)) return false;
    const member = await this.member(guild, userId);
    if (!member?.moderatable) return false;
    const max = this.options.clock.now().getTime() + 28 * 86_400_000 - 60_000;
    try {
      await member.disableCommunicationUntil(new Date(Math.min(until.getTime(), max)), "svc: raid lockdown");
      return true;
    } catch (e) {
      if (refused(e)) return false;
      throw e;
    }
  }

  /** Ends a timeout early (a lockdown lifted before its time). */
  async unrestrict(chatId: string, userId: string): Promise<boolean> {
    const guild = this.client.guilds.cache.get(chatId);
    if (!guild?.members.me?.permissions.has(PermissionFlagsBits.ModerateMembers)) return false;
    const member = await this.member(guild, userId);
    if (!member?.moderatable) return false;
    try {
      await member.disableCommunicationUntil(null, "svc: lockdown lifted");
      return true;
    } catch (e) {
      if (refused(e)) return false;
      throw e;
    }
  }

  /**
   * The owner and every member whose roles grant Administrator or Manage Server, then the
   * server itself by name: a member named like the server is as much an impostor as one named
   * like an admin. Its id (`server:<id>`) is never a user's.
   */
  async listAdmins(chatId: string): Promise<readonly ChatUser[]> {
    const now = this.options.clock.now().getTime();
    const hit = this.admins.get(chatId);
    if (hit && now - hit.at < this.ttl) return hit.list;
    const guild = this.client.guilds.cache.get(chatId);
    if (!guild) return [];
    // Discord sends only some members of a large server at connect: list them (one page) so an
    // offline admin still counts. At most once per TTL per server, and only when members are missing.
    if (guild.members.cache.size < guild.memberCount) await guild.members.list({ limit: 1000 }).catch((e: unknown) => (refused(e) ? null : Promise.reject(e)));
    const members = [...guild.members.cache.values()];
    const owner = members.find((m) => m.id === guild.ownerId);
    const admins = members.filter((m) => m.id !== guild.ownerId && m.permissions.any(ADMIN_PERMISSIONS));
    const list: ChatUser[] = [...(owner ? [owner] : []), ...admins].map((m) => userOf(m.user, m));
    list.push({ id: `server:${guild.id}`, name: guild.name });
    this.admins.set(chatId, { at: now, list });
    return list;
  }

  invalidateAdmins(chatId: string): void {
    this.admins.delete(chatId);
  }

  async resolveMember(chatId: string, user: UserRef): Promise<ResolvedMember | null> {
    if (user.kind !== "id") return null;
    const guild = this.client.guilds.cache.get(chatId);
    if (!guild) return null;
    const m = await this.member(guild, user.id);
    if (!m) return null;
    const status = m.id === guild.ownerId ? "owner" : m.permissions.any(ADMIN_PERMISSIONS) ? "admin" : m.isCommunicationDisabled() ? "restricted" : "member";
    return { ...userOf(m.user, m), status };
  }

  private async member(guild: Guild, userId: string): Promise<GuildMember | null> {
    if (!/^\d{1,20}$/u.test(userId)) return null;
    try {
      return await guild.members.fetch(userId);
    } catch (e) {
      if (refused(e)) return null;
      throw e;
    }
  }

  /** A server id means "the server": the channel of the current event, else its system channel, else the first one the bot may post in. */
  private async channelFor(id: string): Promise<{ send(o: ReturnType<typeof renderReply>): Promise<unknown> } | null> {
    const guild = this.client.guilds.cache.get(id);
    if (guild) {
      const scoped = this.scope.getStore();
      const me = guild.members.me;
      const candidates = [scoped?.guildId === id ? scoped.channelId : null, guild.systemChannelId, ...guild.channels.cache.filter((c) => c.isTextBased()).map((c) => c.id)];
      for (const cid of candidates) {
        const c = cid ? guild.channels.cache.get(cid) : undefined;
        if (c?.isSendable() && (!me || c.permissionsFor(me).has(PermissionFlagsBits.SendMessages))) return c;
      }
      return null;
    }
    if (!/^\d{1,20}$/u.test(id)) return null;
    const channel = await this.client.channels.fetch(id).catch((e: unknown) => (refused(e) ? null : Promise.reject(e)));
    if (channel?.isSendable()) return channel;
    // Not a channel: a user (alerts sent to "me") gets a direct message.
    const user = await this.client.users.fetch(id).catch((e: unknown) => (refused(e) ? null : Promise.reject(e)));
    return user ? { send: (o) => user.send(o) } : null;
  }
}
