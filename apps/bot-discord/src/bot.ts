import {
  BotKernel,
  kernelStores,
  type KernelStores,
  type Reply,
  type ChatUser,
  type CommandContext,
} from "@svc/bot-kernel";
import {
  ChatInputCommandInteraction,
  Client,
  Events,
  GatewayIntentBits,
  Partials,
  PermissionFlagsBits,
  type Guild,
  type GuildMember,
  type Message,
  type PartialMessage,
} from "discord.js";
import { ADMIN_PERMISSIONS, DiscordChatPort, messageRef, userOf } from "./discord-chat-port.js";
import { renderReply } from "./render.js";
import { SLASH_COMMANDS, toCommandText, type SlashInput } from "./slash-commands.js";

/** The platform name the stores key servers by, and reports and tickets record. */
export const PLATFORM = "discord";

/**
 * Gateway intents: servers and their messages, the privileged Message Content (to read links)
 * and Server Members (joins for anti-raid, names for /audit), and direct messages for personal
 * scanning.
 */
export const INTENTS = [
  GatewayIntentBits.Guilds,
  GatewayIntentBits.GuildMessages,
  GatewayIntentBits.MessageContent,
  GatewayIntentBits.GuildMembers,
  GatewayIntentBits.DirectMessages,
] as const;

/** What the bot asks for in its invite link: read, post, delete, ban, time out. */
export const BOT_PERMISSIONS =
  PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages | PermissionFlagsBits.ReadMessageHistory | PermissionFlagsBits.ManageMessages | PermissionFlagsBits.BanMembers | PermissionFlagsBits.ModerateMembers;

export interface DiscordAppDeps extends KernelStores {
  readonly token: string;
  readonly applicationId: string;
  /** REST root (`https://discord.com/api` by default); tests point it at a local fake. */
  readonly apiRoot?: string;
  readonly onError?: (error: unknown) => void;
}

export interface DiscordApp {
  readonly client: Client;
  readonly kernel: BotKernel;
  readonly chat: DiscordChatPort;
  /** Logs in (gateway) and resolves once the client is ready. */
  start(): Promise<void>;
  /**
   * An interaction delivered over HTTP (the interactions endpoint, already verified): answers
   * the HTTP response body. Commands are deferred (ephemeral) and answered through the webhook.
   */
  handleHttpInteraction(raw: { readonly type: number } & Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Registers the slash commands, in one server or globally. */
  registerCommands(guildId?: string): Promise<void>;
  stop(): Promise<void>;
}

/** Members listed for an audit at most (one REST page). */
const AUDIT_LIST_LIMIT = 1000;

export function createDiscordApp(deps: DiscordAppDeps): DiscordApp {
  const client = new Client({
    intents: [...INTENTS],
    // DM channels arrive uncached: without this partial, direct messages are dropped.
    partials: [Partials.Channel],
    rest: deps.apiRoot ? { api: deps.apiRoot } : {},
    // Nobody is ever pinged by what the bot posts (names and entities are user input).
    allowedMentions: { parse: [] },
  });
  const chat = new DiscordChatPort(client, { clock: deps.clock });
  const kernel = new BotKernel({
    platform: PLATFORM,
    dialect: "discord",
    chat,
    ...kernelStores(deps),
    // SPEC: Discord needs the Starter plan or higher, bound with /connect.
    options: { botName: "svc", minimumPlan: "starter", capabilities: { delete: true, ban: true, restrict: true } },
  });
  const report = (e: unknown): void => (deps.onError ? deps.onError(e) : console.error("discord event failed", e));
  const safely =
    <A extends unknown[]>(fn: (...a: A) => Promise<void>) =>
    (...a: A): void =>
      void fn(...a).catch(report);

  const scan = async (m: Message): Promise<void> => {
    if (m.author.bot || m.system || m.webhookId) return;
    const text = m.content;
    if (!m.inGuild()) {
      await kernel.onPrivateMessage({ ref: { chatId: m.channelId, messageId: `${m.channelId}:${m.id}` }, sender: userOf(m.author), text });
      return;
    }
    const sender: ChatUser = userOf(m.author, m.member);
    await chat.inChannel(m.guildId, m.channelId, async () => {
      await kernel.onMessage({ ref: messageRef(m.guildId, m.channelId, m.id), sender, text, senderIsAdmin: m.member?.permissions.any(ADMIN_PERMISSIONS) ?? false });
    });
  };

  client.on(Events.MessageCreate, safely(scan));
  // Scammers post something harmless, then edit a link in: edits are scanned too.
  client.on(
    Events.MessageUpdate,
    safely(async (before: Message | PartialMessage, after: Message | PartialMessage) => {
      if (after.partial || (before.content !== null && before.content === after.content)) return;
      await scan(after);
    }),
  );

  client.on(
    Events.GuildMemberAdd,
    safely(async (member: GuildMember) => {
      const g = member.guild;
      await chat.inChannel(g.id, g.systemChannelId ?? "", () => kernel.onJoin({ chatId: g.id, user: userOf(member.user, member) }));
    }),
  );
  // Promotions and role edits change who counts as an admin.
  client.on(Events.GuildMemberUpdate, (_before, after) => chat.invalidateAdmins(after.guild.id));
  client.on(Events.GuildRoleUpdate, (_before, after) => chat.invalidateAdmins(after.guild.id));

  client.on(Events.GuildCreate, safely(async (guild: Guild) => welcome(guild)));

  const welcome = async (guild: Guild): Promise<void> => {
    const me = guild.members.me;
    const missing = [
      [PermissionFlagsBits.ManageMessages, "Manage Messages (without it I can only warn)"],
      [PermissionFlagsBits.BanMembers, "Ban Members (for the ban policy and /banuser)"],
      [PermissionFlagsBits.ModerateMembers, "Timeout Members (anti-raid lockdowns)"],
    ]
      .filter(([p]) => !me?.permissions.has(p as bigint))
      .map(([, label]) => label as string);
    const hello: Reply = {
      blocks: [
        { type: "heading", text: "🛡 svc was added to this server" },
        { type: "text", text: "I check links, domains, wallets, e-mails and phone numbers posted here, act on risky ones by the server's policy, and always say why and how to appeal. Message text is never stored." },
        { type: "text", text: "This bot needs the Starter plan or higher: an admin runs /connect with an API key (only the bot sees it), then /monitor. /policy notify|delete|ban sets what happens; /learn observes first." },
        ...(missing.length > 0 ? [{ type: "text" as const, text: "Please also give my role these permissions, and keep it above the members it moderates:" }, { type: "list" as const, items: missing }] : []),
      ],
    };
    // A server with no channel the bot may post in: tell the owner directly instead; a closed DM is no error.
    await chat.send(guild.id, hello).catch(() => chat.send(guild.ownerId, hello).catch(() => undefined));
  };

  const command = async (i: ChatInputCommandInteraction): Promise<void> => {
    if (!i.inGuild()) {
      const r = renderReply({ blocks: [{ type: "text", text: "svc's commands work in a server. Add me to yours and use them there." }] });
      await (i.deferred ? i.editReply({ content: r.content }) : i.reply({ ...r, flags: 64 }));
      return;
    }
    // Discord waits 3 s for an answer; screening may take longer, so answer "thinking" (ephemeral) first.
    if (!i.deferred) await i.deferReply({ flags: 64 });
    const input: SlashInput = {
      name: i.commandName,
      subcommand: i.options.getSubcommand(false),
      options: Object.fromEntries(
        (i.options.data[0]?.type === 1 ? (i.options.data[0].options ?? []) : i.options.data).flatMap((o) => (o.value === undefined ? [] : [[o.name, o.value]])),
      ),
    };
    const text = toCommandText(input);
    const parsed = text === null ? null : kernel.parse(text);
    await chat.forInteraction(i, async (ref) => {
      if (i.commandName === "audit") await seedMembers(i.guildId);
      const ctx: CommandContext = {
        chatId: i.guildId,
        chatKind: "group",
        sender: userOf(i.user, i.member instanceof Object && "displayName" in i.member ? (i.member as GuildMember) : null),
        message: ref,
        senderIsAdmin: i.memberPermissions.any(ADMIN_PERMISSIONS),
        argumentsPrivate: true,
      };
      const handled = parsed !== null && (await kernel.onCommand(ctx, parsed));
      if (!handled && !i.replied) await i.editReply({ content: "I don't know that command. /help lists what I can do." });
    });
  };

  /** Discord, unlike Telegram, can list a server's members: /audit compares all of them (one page). */
  const seedMembers = async (guildId: string): Promise<void> => {
    const guild = client.guilds.cache.get(guildId);
    if (!guild) return;
    const now = deps.clock.now();
    const listed = await guild.members.list({ limit: AUDIT_LIST_LIMIT }).catch(() => guild.members.cache);
    for (const m of listed.values()) if (!m.user.bot) await deps.members.remember(guildId, userOf(m.user, m), now);
  };

  client.on(
    Events.InteractionCreate,
    safely(async (i) => {
      if (i.isChatInputCommand()) await command(i);
      else if (i.isRepliable()) await i.reply({ content: "That button has expired.", flags: 64 });
    }),
  );
  client.on(Events.Error, report);

  return {
    client,
    kernel,
    chat,
    start: async () => {
      const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
      await client.login(deps.token);
      await ready;
    },
    handleHttpInteraction: async (raw) => {
      if (raw.type === 1) return { type: 1 }; // PING, sent when the endpoint URL is saved
      if (raw.type === 2 && (raw.data as { type?: number } | undefined)?.type === 1) {
        // The HTTP response is the deferral; the answer follows as an edit of the original response.
        const i = Reflect.construct(ChatInputCommandInteraction, [client, raw]) as ChatInputCommandInteraction;
        i.deferred = true;
        i.ephemeral = true;
        void command(i).catch(report);
        return { type: 5, data: { flags: 64 } };
      }
      return { type: 4, data: { content: "That button has expired.", flags: 64 } };
    },
    registerCommands: async (guildId) => {
      const route = guildId ? (`/applications/${deps.applicationId}/guilds/${guildId}/commands` as const) : (`/applications/${deps.applicationId}/commands` as const);
      await client.rest.put(route, { body: SLASH_COMMANDS });
    },
    stop: () => client.destroy(),
  };
}
