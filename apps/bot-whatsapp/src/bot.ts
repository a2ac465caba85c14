import {
  BotKernel,
  FEATURES,
  featuresWithout,
  kernelStores,
  type KernelStores,
  effectivePlan,
  planAtLeast,
  text,
  heading,
  list,
  note,
  type Block,
  type ChatUser,
  type CommandContext,
  type ParseResult,
} from "@svc/bot-kernel";
import { isWellFormedApiKey } from "@svc/server-ports";
import type { Logger } from "pino";
import { groupChatId, WhatsAppChatPort, type GroupAdmins } from "./chat-port.js";
import type { WhatsAppSender } from "./outbound.js";
import type { InboundEvent } from "./payload.js";

/** The platform name the stores key chats by, and reports and tickets record. */
export const PLATFORM = "whatsapp";
/** SPEC: the WhatsApp bot needs the Starter plan or higher. */
export const MINIMUM_PLAN = "starter" as const;

/** Inbound event ids already handled (a TypeORM adapter in production). */
export interface SeenEvents {
  firstSight(eventId: string, at: Date): Promise<boolean>;
  prune(before: Date): Promise<number>;
}

export interface WhatsAppAppDeps extends KernelStores {
  readonly phoneNumberId: string;
  readonly sender: WhatsAppSender;
  readonly admins: GroupAdmins;
  readonly seen: SeenEvents;
  readonly log: Logger;
}

export type EventResult = "handled" | "duplicate" | "ignored" | "failed";

export interface StatusCounts {
  sent: number;
  delivered: number;
  read: number;
  failed: number;
  other: number;
}

export interface WhatsAppApp {
  readonly kernel: BotKernel;
  readonly chat: WhatsAppChatPort;
  /** Delivery callbacks for the messages the bot sent, by status (process lifetime). */
  readonly statuses: StatusCounts;
  /** Handles one inbound event; never throws (a failure is logged and answered "failed"). */
  handle(event: InboundEvent): Promise<EventResult>;
}

/** `!svc` alone or `!svc help`: the platform-4 commands of SPEC.md, not every kernel command. */
const HELP: Block[] = [
  heading("svc: scam checks for WhatsApp groups"),
  text("I check links, domains, wallets, e-mails and phone numbers posted in a connected group and warn under risky ones, with the reason and how to appeal. Message text is never stored. Needs the Starter plan or higher."),
  list([
    "!svc connect <api_key>: connect this group to your plan (the first to connect becomes its admin)",
    "!svc status: show monitoring status",
    "!svc monitor / !svc unmonitor: start or stop monitoring (admins)",
    "!svc policy notify: set the action policy (admins; WhatsApp allows warnings only)",
    "!svc report <entity>: report a suspected scam",
    "!svc admin add <phone>: add an admin (admins)",
  ]),
  note("In a private chat, send me a link, wallet or number and I reply with a verdict. I never ask for codes, seed phrases or payments."),
];

const ADMIN_ADD = /^\s*!svc\s+admin\s+add\s+([+\d][\d\s().-]{0,40})$/iu;

/** `+1 (415) 555-0100`, `0044 20…` → digits of an E.164 number, as WhatsApp ids are written. */
export function waIdOf(phone: string): string | null {
  let p = phone.replace(/[\s().-]/gu, "");
  if (p.startsWith("+")) p = p.slice(1);
  else if (p.startsWith("00")) p = p.slice(2);
  return /^[1-9]\d{7,14}$/u.test(p) ? p : null;
}

/**
 * The WhatsApp adapter: Cloud API events in, kernel calls out. Only what the platform does
 * differently lives here: `!svc` commands only, the first connector of a group becomes its
 * owner, admins are added by command, and the bot is notify-only.
 */
export function createWhatsAppApp(deps: WhatsAppAppDeps): WhatsAppApp {
  const chat = new WhatsAppChatPort(deps.sender, deps.admins);
  const kernel = new BotKernel({
    platform: PLATFORM,
    dialect: "whatsapp",
    chat,
    ...kernelStores(deps),
    // The bot reads no group participant updates (no joins), so anti-raid and welcomes are not
    // offered: their commands answer "not available here" (anti-raid is a platform-1 feature in SPEC.md).
    options: { botName: "svc", capabilities: { delete: false, ban: false, restrict: false }, minimumPlan: MINIMUM_PLAN, features: featuresWithout(FEATURES.antiRaid, FEATURES.welcome) },
  });
  const statuses: StatusCounts = { sent: 0, delivered: 0, read: 0, failed: 0, other: 0 };
  const say = (ctx: CommandContext, ...blocks: Block[]): Promise<void> =>
    ctx.message ? chat.reply(ctx.message, { blocks }) : chat.send(ctx.chatId, { blocks });

  /** `!svc connect <key>` in a group nobody has connected yet: a paid key makes its sender the owner. */
  const firstConnect = async (ctx: CommandContext, parsed: ParseResult & { ok: true }, key: string): Promise<void> => {
    const plan = isWellFormedApiKey(key) ? await deps.plans.planForKey(key) : null;
    // A bad or unknown key: the kernel explains (and binds nothing).
    if (plan === null) return void (await kernel.onCommand({ ...ctx, senderIsAdmin: true }, parsed));
    if (!planAtLeast(plan, MINIMUM_PLAN)) {
      return say(ctx, text(`That key's account is on the ${plan} plan; the WhatsApp bot needs ${MINIMUM_PLAN} or higher. Please delete your message: it contains the key.`));
    }
    if (!(await deps.admins.claimOwner(ctx.chatId, ctx.sender, deps.clock.now()))) {
      // Someone else connected the group a moment ago: the usual admin check answers.
      return void (await kernel.onCommand(ctx, parsed));
    }
    await kernel.onCommand(ctx, parsed);
    // Notify is the only policy WhatsApp allows; connecting starts monitoring (no other setup step exists).
    const s = await kernel.settingsFor(ctx.chatId);
    await deps.settings.save({ ...s, policy: "notify", monitoring: true, updatedAt: deps.clock.now().toISOString() });
    await say(
      ctx,
      heading("🛡 svc is now protecting this group"),
      text(`${ctx.sender.name}, you connected this group, so you are its admin. Links, wallets, e-mails and phone numbers posted here are checked and risky ones get a warning with the reason. Message text is never stored.`),
      list(["!svc status: monitoring status", "!svc unmonitor / !svc monitor: stop or start", "!svc admin add <phone>: add an admin", "!svc report <entity>: report a scam"]),
      note("WhatsApp does not let bots delete messages or remove members: warnings only."),
    );
  };

  const adminAdd = async (ctx: CommandContext, phone: string): Promise<void> => {
    if (ctx.chatKind !== "group") return say(ctx, text("!svc admin add works in a group: run it there."));
    if (!(await kernel.isAdmin(ctx.chatId, ctx.sender.id))) return say(ctx, text("Sorry, !svc admin add is for the admins of this group."));
    const s = await kernel.settingsFor(ctx.chatId);
    if (!planAtLeast(effectivePlan(s, deps.clock.now()), MINIMUM_PLAN)) return say(ctx, text(`This bot needs the ${MINIMUM_PLAN} plan or higher. An admin can bind one with !svc connect <api_key>.`));
    const waId = waIdOf(phone);
    if (waId === null) return say(ctx, text(`"${phone.slice(0, 40)}" is not a phone number in international format.`), text("Usage: !svc admin add <phone>\nExample: !svc admin add +14155550100"));
    const r = await deps.admins.add(ctx.chatId, { id: waId, name: `+${waId}` }, ctx.sender.id, deps.clock.now());
    if (r === "exists") return say(ctx, text(`+${waId} is already an admin of this group.`));
    if (r === "full") return say(ctx, text("This group has the most admins allowed; none was added."));
    deps.log.info({ chat: ctx.chatId, by: ctx.sender.id }, "whatsapp admin added");
    return say(ctx, text(`+${waId} is now an admin of this group.`));
  };

  const onCommand = async (ctx: CommandContext, parsed: ParseResult, raw: string): Promise<void> => {
    // People write phone numbers with spaces ("+44 7700 900123"): the rest of the line is the number.
    if (!parsed.ok && parsed.name === "admin_add") {
      const phone = ADMIN_ADD.exec(raw)?.[1];
      if (phone) return adminAdd(ctx, phone);
    }
    if (!parsed.ok) return void (await kernel.onCommand(ctx, parsed));
    const cmd = parsed.command;
    if (cmd.name === "admin_add") return adminAdd(ctx, cmd.phone);
    if (cmd.name === "start") return say(ctx, ...HELP);
    if (cmd.name === "subscribe" || cmd.name === "refund") {
      return say(ctx, text("WhatsApp has no in-app purchases: an admin binds a paid plan with !svc connect <api_key>."));
    }
    if (cmd.name === "connect" && ctx.chatKind === "group" && (await chat.listAdmins(ctx.chatId)).length === 0) return firstConnect(ctx, parsed, cmd.apiKey);
    await kernel.onCommand(ctx, parsed);
  };

  const onMessage = async (e: Extract<InboundEvent, { kind: "message" }>): Promise<EventResult> => {
    if (e.phoneNumberId !== deps.phoneNumberId) {
      deps.log.warn({ phoneNumberId: e.phoneNumberId }, "whatsapp event for another phone number ignored");
      return "ignored";
    }
    // Redeliveries carry the same id: remembered before acting, so a retry racing the original is dropped too.
    if (!(await deps.seen.firstSight(e.id, deps.clock.now()))) return "duplicate";
    if (e.text === null) return "ignored";
    const sender: ChatUser = { id: e.from, name: e.name ?? `+${e.from}` };
    const chatId = e.groupId !== null ? groupChatId(e.groupId) : e.from;
    const ref = { chatId, messageId: e.id };
    const ctx: CommandContext = { chatId, chatKind: e.groupId !== null ? "group" : "private", sender, message: ref };
    // Only `!svc …` is a command here; a leading "/" is ordinary text on WhatsApp.
    const parsed = e.text.trimStart().startsWith("!svc") ? kernel.parse(e.text) : null;
    if (parsed) {
      await onCommand(ctx, parsed, e.text);
      return "handled";
    }
    if (e.groupId === null) await kernel.onPrivateMessage({ ref, sender, text: e.text });
    else await kernel.onMessage({ ref, sender, text: e.text });
    return "handled";
  };

  const onStatus = (e: Extract<InboundEvent, { kind: "status" }>): EventResult => {
    const key = e.status === "sent" || e.status === "delivered" || e.status === "read" || e.status === "failed" ? e.status : "other";
    statuses[key]++;
    if (key === "failed") deps.log.warn({ message: e.id, errors: e.errors.map((x) => x.code) }, "whatsapp message not delivered");
    else deps.log.debug({ message: e.id, status: e.status }, "whatsapp message status");
    return "handled";
  };

  return {
    kernel,
    chat,
    statuses,
    async handle(event) {
      try {
        if (event.kind === "message") return await onMessage(event);
        if (event.kind === "status") return onStatus(event);
        deps.log.debug({ what: event.what }, "whatsapp event ignored");
        return "ignored";
      } catch (e) {
        deps.log.error({ err: e }, "whatsapp event failed");
        return "failed";
      }
    },
  };
}
