import {
  ADMIN_COMMANDS,
  BotKernel,
  kernelStores,
  type KernelStores,
  commandPurpose,
  parseCommand,
  type CommandName,
  type ChatKind,
  type ChatUser,
  type CommandContext,
  type PaymentLedger,
} from "@svc/bot-kernel";
import { Bot, type Context, type Transformer } from "grammy";
import type { BotCommand, Chat, ChatMember, Message, UserFromGetMe } from "grammy/types";
import { DeferredCalls } from "./deferred-calls.js";
import { floodControl } from "./flood-control.js";
import { forwardedFrom, scanText } from "./message-text.js";
import { Stars, type StarsPrices } from "./stars.js";
import { TelegramChatPort, userOf } from "./telegram-chat-port.js";

/** Updates the bot needs; `chat_member` (joins, for anti-raid) is only sent when asked for. */
export const ALLOWED_UPDATES = ["message", "edited_message", "my_chat_member", "chat_member", "pre_checkout_query", "callback_query"] as const;

/**
 * The command menus Telegram shows (setMyCommands): what everyone may use in every chat, and
 * everything in groups for their administrators. Called once at start.
 */
export async function registerCommands(api: Bot["api"]): Promise<void> {
  const entry = (n: CommandName): BotCommand => ({ command: n, description: commandPurpose(n).slice(0, 256) });
  // Telegram asks bots that take payments to answer /paysupport.
  const paysupport: BotCommand = { command: "paysupport", description: "help with a payment (opens a ticket)" };
  const everyone = [...MENU.filter((n) => !ADMIN_COMMANDS.has(n)).map(entry), paysupport];
  await api.setMyCommands(everyone, { scope: { type: "default" } });
  await api.setMyCommands([...MENU.map(entry), paysupport], { scope: { type: "all_chat_administrators" } });
}

/** Commands in the menus, in this order (no `admin_add`, which is WhatsApp's). */
const MENU: readonly CommandName[] = ["check", "report", "status", "subscribe", "refund", "support", "start", "protect", "monitor", "unmonitor", "policy", "alerts", "antiraid", "welcome", "learn", "connect", "audit", "verify", "banuser", "blocklist", "allowlist", "setlog", "settings"];

export interface TelegramAppDeps extends KernelStores {
  readonly token: string;
  /** Known bot identity: skips getMe (tests, and faster cold starts). */
  readonly botInfo?: UserFromGetMe;
  readonly ledger: PaymentLedger;
  readonly prices: StarsPrices;
  /** Innermost API transformer: tests replace the network with it. */
  readonly transport?: Transformer;
  /** Bot API server root (default https://api.telegram.org; a self-hosted Bot API server, or a fake one in tests). */
  readonly apiRoot?: string;
  /** Sleep used by flood control (tests pass a fake). */
  readonly sleep?: (ms: number) => Promise<void>;
  readonly adminTtlMs?: number;
  readonly onError?: (error: unknown) => void;
}

export interface TelegramApp {
  readonly bot: Bot;
  readonly kernel: BotKernel;
  readonly chat: TelegramChatPort;
  readonly stars: Stars;
  /** Calls Telegram asked to wait long for (429), made once the wait is over. */
  readonly deferred: DeferredCalls;
  /** The timer's work: deferred calls that are due, then lockdowns and learning periods that end. */
  tick(): Promise<void>;
}

/** The platform name the stores key chats by, and reports and tickets record. */
export const PLATFORM = "telegram";

/** Telegram's stand-in sender for anonymous group admins. */
const GROUP_ANONYMOUS_BOT = 1087968824;

const chatKind = (c: Chat): ChatKind => (c.type === "private" ? "private" : c.type === "channel" ? "channel" : "group");

const isIn = (m: ChatMember): boolean =>
  m.status === "member" || m.status === "administrator" || m.status === "creator" || (m.status === "restricted" && m.is_member);

const isAdminStatus = (m: ChatMember): boolean => m.status === "administrator" || m.status === "creator";

export function createTelegramApp(deps: TelegramAppDeps): TelegramApp {
  const bot = new Bot(deps.token, { ...(deps.botInfo ? { botInfo: deps.botInfo } : {}), ...(deps.apiRoot ? { client: { apiRoot: deps.apiRoot } } : {}) });
  if (deps.transport) bot.api.config.use(deps.transport);
  // Installed after the transport, so it wraps it: a 429 from "the network" is waited out here.
  bot.api.config.use(floodControl(deps.sleep ? { sleep: deps.sleep } : {}));
  const report = (e: unknown): void => (deps.onError ? deps.onError(e) : console.error("telegram update failed", e));
  const deferred = new DeferredCalls(deps.clock, report);
  const chat = new TelegramChatPort(bot.api, { clock: deps.clock, deferred, ...(deps.adminTtlMs !== undefined ? { adminTtlMs: deps.adminTtlMs } : {}) });
  const kernel = new BotKernel({
    platform: PLATFORM,
    dialect: "telegram",
    chat,
    ...kernelStores(deps),
    options: { botName: "svc", capabilities: { delete: true, ban: true, restrict: true } },
  });
  const stars = new Stars({ api: bot.api, kernel, ledger: deps.ledger, clock: deps.clock, prices: deps.prices });
  // A failed update is reported and answered as handled: rethrowing would make a webhook
  // answer 500 and Telegram redeliver the update, repeating whatever already happened.
  // Calls Telegram asked to wait for go out first, once their wait is over.
  bot.use(async (_ctx, next) => {
    await deferred.runDue();
    await next();
  });
  const safe = bot.errorBoundary((err) => report(err.error));

  safe.on("my_chat_member", async (ctx) => {
    const u = ctx.myChatMember;
    if (u.chat.type !== "group" && u.chat.type !== "supergroup") return;
    const chatId = String(u.chat.id);
    chat.invalidateAdmins(chatId);
    const rightsOf = (m: ChatMember) => {
      const admin = m.status === "administrator" ? m : null;
      const owner = m.status === "creator";
      return {
        isAdmin: isAdminStatus(m),
        // In basic groups every admin may delete; supergroups grant it per right.
        canDelete: owner || (admin !== null && (u.chat.type === "group" || admin.can_delete_messages)),
        canRestrict: owner || (admin !== null && admin.can_restrict_members),
      };
    };
    await kernel.onBotMembership(chatId, { ...rightsOf(u.new_chat_member), was: rightsOf(u.old_chat_member) });
  });

  safe.on("chat_member", async (ctx) => {
    const u = ctx.chatMember;
    const chatId = String(u.chat.id);
    if (isAdminStatus(u.old_chat_member) !== isAdminStatus(u.new_chat_member)) chat.invalidateAdmins(chatId);
    if (!isIn(u.old_chat_member) && isIn(u.new_chat_member)) await kernel.onJoin({ chatId, user: userOf(u.new_chat_member.user) });
  });

  safe.on("pre_checkout_query", (ctx) => stars.preCheckout(ctx.preCheckoutQuery));

  safe.on("message:successful_payment", async (ctx) => {
    await stars.paid(ctx.from, String(ctx.chat.id), ctx.message.successful_payment);
  });

  safe.on("message:refunded_payment", (ctx) => stars.refunded(ctx.message.refunded_payment.telegram_payment_charge_id));

  // Buttons under the bot's warnings (undo a ban, approve a domain, report a false positive).
  // Every callback query is answered, also one the bot does not know: Telegram shows a spinner
  // on the button until it is.
  safe.on("callback_query", async (ctx) => {
    const q = ctx.callbackQuery;
    const m = q.message;
    if (q.data === undefined || !m) {
      await ctx.answerCallbackQuery();
      return;
    }
    const chatId = String(m.chat.id);
    const notice = await kernel.onAction({ chatId, chatKind: chatKind(m.chat), sender: userOf(q.from), message: null }, q.data);
    await ctx.answerCallbackQuery({ text: notice });
  });

  const onMessage = async (ctx: Context, m: Message, edited: boolean): Promise<void> => {
    const chatId = String(m.chat.id);
    const ref = { chatId, messageId: String(m.message_id) };
    const anonymousAdmin = m.from?.id === GROUP_ANONYMOUS_BOT && m.sender_chat?.id === m.chat.id;
    // The group's own linked channel, forwarded in automatically: it speaks for the group, so
    // it is warned about at most, never deleted or banned.
    const linkedChannel = m.is_automatic_forward === true;
    // Posts "as a channel" carry the channel as sender; such a sender is never an admin.
    const sender: ChatUser | null = anonymousAdmin
      ? { id: chatId, name: "Group admin" }
      : m.sender_chat && m.sender_chat.id !== m.chat.id
        ? { id: String(m.sender_chat.id), name: ("title" in m.sender_chat && m.sender_chat.title) || "channel" }
        : m.from
          ? userOf(m.from)
          : null;
    const raw = m.text ?? m.caption;
    if (raw !== undefined && m.text !== undefined && !edited && sender) {
      const parsed = parseCommand(m.text, { dialect: "telegram", botUsername: ctx.me.username });
      // Known commands are answered, not scanned: "/report paypa1.com" must not get its sender banned.
      if (parsed && parsed.ok) return runCommand(ctx, m, parsed, { chatId, chatKind: chatKind(m.chat), sender, message: ref, replyToUser: m.reply_to_message?.from ? userOf(m.reply_to_message.from) : null, senderIsAdmin: anonymousAdmin });
      // Bad arguments get a usage reply; unknown commands in groups are probably for another
      // bot and are scanned like any message.
      if (parsed && !parsed.ok && (parsed.name !== null || m.chat.type === "private")) {
        await kernel.onCommand({ chatId, chatKind: chatKind(m.chat), sender, message: ref, senderIsAdmin: anonymousAdmin }, parsed);
        return;
      }
    }
    if (raw === undefined && !m.forward_origin) return;
    const text = scanText(m);
    if (m.chat.type === "private") {
      if (!m.from) return;
      const fwd = forwardedFrom(m);
      await kernel.onPrivateMessage({ ref, sender: userOf(m.from), text, ...(fwd ? { forwardedFrom: fwd } : {}) });
      return;
    }
    if (m.chat.type !== "group" && m.chat.type !== "supergroup") return;
    await kernel.onMessage({ ref, sender, text, senderIsAdmin: anonymousAdmin || linkedChannel });
  };

  const runCommand = async (ctx: Context, m: Message, parsed: Extract<ReturnType<typeof parseCommand>, { ok: true }>, c: CommandContext): Promise<void> => {
    const cmd = parsed.command;
    if (cmd.name === "subscribe") {
      if (m.chat.type === "private") {
        await ctx.reply("Plans belong to a group: run /subscribe in the group you want to upgrade. Payment is in Telegram Stars.");
        return;
      }
      await stars.sendInvoice(c.chatId, cmd.plan);
      return;
    }
    if (cmd.name === "refund") {
      if (!m.from) return;
      await ctx.reply(await stars.refund(m.from), { reply_parameters: { message_id: m.message_id, allow_sending_without_reply: true } });
      return;
    }
    await kernel.onCommand(c, parsed);
  };

  safe.on("message", (ctx) => onMessage(ctx, ctx.message, false));
  // Scammers post something harmless, then edit a link in: edits are scanned too.
  safe.on("edited_message", (ctx) => onMessage(ctx, ctx.editedMessage, true));

  bot.catch((err) => report(err.error));

  const tick = async (): Promise<void> => {
    await deferred.runDue();
    await kernel.tick();
  };
  return { bot, kernel, chat, stars, deferred, tick };
}
