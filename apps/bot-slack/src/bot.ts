import { App, LogLevel, type Logger } from "@slack/bolt";
import type { WebClient } from "@slack/web-api";
import {
  BotKernel,
  FEATURES,
  featuresWithout,
  kernelStores,
  type KernelStores,
  type CommandContext,
  type Reply,
} from "@svc/bot-kernel";
import type { Installations } from "./installations.js";
import { scanText } from "./message-text.js";
import { NotifyOnlySettings } from "./notify-only-settings.js";
import { renderBlocks } from "./render.js";
import { chatIdOf, SlackChatPort } from "./slack-chat-port.js";

/** The platform name the stores key chats by, and reports and tickets record. */
export const PLATFORM = "slack";

export interface SlackAppDeps extends KernelStores {
  /** One Web API client (its `slackApiUrl` is the configured API root); tokens are passed per call. */
  readonly client: WebClient;
  readonly installations: Installations;
  readonly onError?: (error: unknown) => void;
  /** Warnings (Bolt's, a post that could not be delivered); default stderr. */
  readonly onWarning?: (message: string) => void;
}

export interface SlackApp {
  readonly bolt: App;
  readonly kernel: BotKernel;
  readonly chat: SlackChatPort;
  readonly installations: Installations;
}

/** Message subtypes that carry something a person posted; joins, topic changes, deletions are not scanned. */
const SCANNED_SUBTYPES = new Set([undefined, "thread_broadcast", "file_share", "bot_message", "me_message"]);

interface MessageLike {
  readonly user?: string;
  readonly bot_id?: string;
  readonly username?: string;
  readonly text?: string;
  readonly ts?: string;
  readonly app_id?: string;
}

/** A receiver that receives nothing: requests come through our own signed HTTP front (http.ts). */
const noReceiver = { init: (): void => {}, start: async (): Promise<void> => {}, stop: async (): Promise<void> => {} };

function boltLogger(report: (e: unknown) => void, warn: (message: string) => void): Logger {
  let level = LogLevel.WARN;
  return {
    debug: () => {},
    info: () => {},
    warn: (...m: unknown[]) => warn(m.map(String).join(" ")),
    error: (...m: unknown[]) => report(m.length === 1 ? m[0] : m),
    setLevel: (l: LogLevel) => {
      level = l;
    },
    getLevel: () => level,
    setName: () => {},
  };
}

const merge = (replies: readonly Reply[]): Reply => ({ blocks: replies.flatMap((r) => r.blocks), buttons: replies.flatMap((r) => r.buttons ?? []) });

export function createSlackApp(deps: SlackAppDeps): SlackApp {
  const report = (e: unknown): void => (deps.onError ? deps.onError(e) : console.error("slack event failed", e));
  const warn = deps.onWarning ?? ((message: string) => console.warn(`slack: ${message}`));
  const chat = new SlackChatPort(deps.client, deps.installations, {
    clock: deps.clock,
    onUndeliverable: (chatId, error) => warn(`could not post to ${chatId}: ${error}`),
  });
  const kernel = new BotKernel({
    platform: PLATFORM,
    dialect: "slack",
    chat,
    ...kernelStores(deps),
    settings: new NotifyOnlySettings(deps.settings, PLATFORM, deps.clock),
    // SPEC: Slack needs the Pro plan, and bots there can only warn. The app reads no joins
    // (member_joined_channel), so anti-raid and welcomes are not offered: their commands answer "not available here".
    options: { botName: "svc", minimumPlan: "pro", capabilities: { delete: false, ban: false, restrict: false }, features: featuresWithout(FEATURES.antiRaid, FEATURES.welcome) },
  });

  const bolt = new App({
    receiver: noReceiver,
    // Per-workspace tokens from our own store: nothing is fetched at start-up (no auth.test).
    authorize: async (source) => {
      const inst = source.teamId ? await deps.installations.find(source.teamId) : null;
      if (!inst) throw new Error(`svc is not installed in workspace ${source.teamId ?? "(none)"}`);
      return { botToken: inst.botToken, botUserId: inst.botUserId, ...(inst.botId ? { botId: inst.botId } : {}), teamId: inst.teamId };
    },
    logger: boltLogger(report, warn),
    ignoreSelf: true,
  });
  bolt.error(async (e) => report(e));

  bolt.command(/^\/svc-[a-z_-]{1,32}$/u, async ({ command, ack, context }) => {
    const teamId = context.teamId ?? command.team_id;
    const chatId = chatIdOf(teamId, command.channel_id);
    const profile = await chat.profile(teamId, command.user_id);
    const inst = await deps.installations.find(teamId);
    const sender = profile?.user ?? { id: command.user_id, name: command.user_name };
    const ctx = (ref: CommandContext["message"]): CommandContext => ({
      chatId,
      // Direct messages with the app have D… ids; everything else is a channel.
      chatKind: command.channel_id.startsWith("D") ? "private" : "group",
      sender,
      message: ref,
      senderIsAdmin: profile?.isAdmin === true || (inst?.installedBy ?? null) === command.user_id,
      // Slash-command text reaches only the app: a key given to /svc-connect was never posted.
      argumentsPrivate: true,
    });
    const collector = chat.openCommand(chatId);
    try {
      const parsed = kernel.parse(`${command.command} ${command.text}`);
      if (parsed === null || (!parsed.ok && parsed.name === null)) {
        await ack({ response_type: "ephemeral", text: `I don't know ${command.command}. /svc-start lists what I can do.` });
        return;
      }
      const handled = await kernel.onCommand(ctx(collector.ref), parsed);
      if (!handled) {
        await ack({ response_type: "ephemeral", text: "Plans are bought on the svc website; bind one here with /svc-connect <api_key>." });
        return;
      }
      const replies = collector.finish();
      await ack(replies.length > 0 ? { response_type: "ephemeral", ...renderBlocks(merge(replies)) } : undefined);
    } finally {
      collector.finish();
    }
  });

  bolt.event("message", async ({ event, context, body }) => {
    const e = event as unknown as MessageLike & { subtype?: string; channel: string; channel_type?: string; message?: MessageLike };
    const teamId = context.teamId;
    if (!teamId) return;
    // Scammers post something harmless, then edit a link in: edits are scanned too.
    const m: MessageLike | undefined = e.subtype === "message_changed" ? e.message : SCANNED_SUBTYPES.has(e.subtype) ? e : undefined;
    if (!m || m.text === undefined || m.ts === undefined) return;
    // Our own warnings come back as events: never scan them (they quote the risky value, defanged).
    if (m.user !== undefined && m.user === context.botUserId) return;
    if ((m.app_id !== undefined && m.app_id === (body as { api_app_id?: string }).api_app_id) || (m.bot_id !== undefined && m.bot_id === context.botId)) return;
    const chatId = chatIdOf(teamId, e.channel);
    const ref = { chatId, messageId: m.ts };
    const sender = m.user ? ((await chat.profile(teamId, m.user))?.user ?? { id: m.user, name: m.user }) : m.bot_id ? { id: m.bot_id, name: m.username ?? "bot", isBot: true } : null;
    const text = scanText(m.text);
    if (e.channel_type === "im") {
      if (sender && !sender.isBot) await kernel.onPrivateMessage({ ref, sender, text });
      return;
    }
    await kernel.onMessage({ ref, sender, text });
  });

  const uninstall = async (teamId: string | undefined): Promise<void> => {
    if (!teamId) return;
    await deps.installations.delete(teamId);
    chat.forgetTeam(teamId);
  };
  bolt.event("app_uninstalled", async ({ context, body }) => uninstall(context.teamId ?? (body as { team_id?: string }).team_id));
  bolt.event("tokens_revoked", async ({ event, context, body }) => {
    // Only the bot token matters to us; a revoked user token leaves the installation working.
    if ((event.tokens.bot ?? []).length > 0) await uninstall(context.teamId ?? (body as { team_id?: string }).team_id);
  });

  return { bolt, kernel, chat, installations: deps.installations };
}
