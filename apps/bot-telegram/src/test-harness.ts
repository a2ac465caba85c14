/**
 * grammY offline (reference/chat-bots.md §4): a real Bot with a known identity, a transport
 * transformer that records every outgoing Bot API call and answers it without a network, and
 * builders for the updates Telegram would send. Used by the tests only.
 */
import {
  InMemoryMemberDirectory,
  InMemoryPaymentLedger,
  InMemoryPlanResolver,
  InMemoryReportSink,
  InMemoryScreening,
  InMemorySettingsStore,
  InMemoryStatsStore,
  InMemorySupportDesk,
  ManualClock,
} from "@svc/bot-kernel";
import type { Transformer } from "grammy";
import type { ApiResponse, ChatMember, Message, MessageEntity, MessageOrigin, Update, User, UserFromGetMe } from "grammy/types";
import { createTelegramApp, type TelegramApp } from "./bot.js";

export const BOT_INFO: UserFromGetMe = {
  id: 4242,
  is_bot: true,
  first_name: "svc",
  username: "svc_bot",
  can_join_groups: true,
  can_read_all_group_messages: true,
  supports_inline_queries: false,
  can_connect_to_business: false,
  has_main_web_app: false,
  has_topics_enabled: false,
  allows_users_to_create_topics: false,
  can_manage_bots: false,
  supports_join_request_queries: false,
};

export const GROUP_ID = -1001234567890;
export const ADMIN: User = { id: 100, is_bot: false, first_name: "Alice", last_name: "Walker", username: "alice_w" };
export const MEMBER: User = { id: 200, is_bot: false, first_name: "Mallory", username: "mallory" };
export const TRUSTED: User = { id: 300, is_bot: false, first_name: "Trent", username: "trent" };

export interface Call {
  readonly method: string;
  readonly payload: Record<string, unknown>;
}

type Responder = (payload: Record<string, unknown>) => ApiResponse<unknown> | undefined;

const ok = <T>(result: T): ApiResponse<T> => ({ ok: true, result });

function adminMember(u: User, status: "creator" | "administrator"): ChatMember {
  return status === "creator"
    ? { status, user: u, is_anonymous: false }
    : {
        status,
        user: u,
        can_be_edited: false,
        is_anonymous: false,
        can_manage_chat: true,
        can_delete_messages: true,
        can_manage_video_chats: false,
        can_restrict_members: true,
        can_promote_members: false,
        can_change_info: false,
        can_invite_users: true,
        can_post_stories: false,
        can_edit_stories: false,
        can_delete_stories: false,
        can_send_welcome_messages: false,
      };
}

export function createHarness() {
  const clock = new ManualClock("2026-03-02T09:00:00.000Z");
  const calls: Call[] = [];
  const admins = new Map<number, User[]>([[GROUP_ID, [ADMIN]]]);
  /** One-shot answers per method (queued), e.g. a 429 before success. */
  const queued = new Map<string, Responder[]>();
  let messageId = 5000;
  /** Users that appeared in fabricated updates: getChatMember knows them, as Telegram would. */
  const known = new Map<number, User>([ADMIN, MEMBER, TRUSTED].map((u) => [u.id, u]));

  const answer = (method: string, payload: Record<string, unknown>): ApiResponse<unknown> => {
    const q = queued.get(method);
    const once = q?.shift()?.(payload);
    if (once) return once;
    switch (method) {
      case "sendMessage":
      case "sendInvoice":
        return ok({ message_id: ++messageId, date: Math.floor(clock.now().getTime() / 1000), chat: { id: payload.chat_id, type: "supergroup", title: "Group" }, text: String(payload.text ?? "") });
      case "getChatAdministrators": {
        const list = admins.get(Number(payload.chat_id));
        if (!list) return { ok: false, error_code: 400, description: "Bad Request: there are no administrators in the private chat" };
        return ok(list.map((u, i) => adminMember(u, i === 0 ? "creator" : "administrator")));
      }
      case "getChatMember": {
        const id = Number(payload.user_id);
        const isAdmin = (admins.get(Number(payload.chat_id)) ?? []).some((u) => u.id === id);
        const user = known.get(id) ?? { id, is_bot: false, first_name: `User ${id}` };
        return ok(isAdmin ? adminMember(user, "administrator") : { status: "member", user });
      }
      default:
        return ok(true);
    }
  };

  const transport: Transformer = async (_prev, method, payload) => {
    const p = (payload ?? {}) as Record<string, unknown>;
    calls.push({ method, payload: p });
    return answer(method, p) as Awaited<ReturnType<Transformer>>;
  };

  const screening = new InMemoryScreening()
    .set("paypa1.com", "critical", "Looks like paypal.com (one character replaced: l → 1)")
    .set("claim-airdrop.top", "high", "Suspicious top-level domain and airdrop keyword")
    .set("0x52908400098527886E0F7030069857D2E4169EE7", "critical", "Known drainer wallet")
    .set("docs.python.org", "low");
  const settings = new InMemorySettingsStore();
  const stores = {
    settings,
    stats: new InMemoryStatsStore(),
    members: new InMemoryMemberDirectory(),
    reports: new InMemoryReportSink(),
    support: new InMemorySupportDesk(),
    plans: new InMemoryPlanResolver(),
    ledger: new InMemoryPaymentLedger(settings),
  };
  const sleeps: number[] = [];
  const errors: unknown[] = [];
  const app: TelegramApp = createTelegramApp({
    token: "123:TEST",
    botInfo: BOT_INFO,
    clock,
    screening,
    ...stores,
    prices: { starter: 1500, pro: 5000 },
    transport,
    sleep: async (ms) => {
      sleeps.push(ms);
      clock.advance(ms);
    },
    adminTtlMs: 60_000,
    onError: (e) => errors.push(e),
  });

  let updateId = 1;
  const nextUpdate = (): number => updateId++;
  let msgCounter = 100;
  const now = (): number => Math.floor(clock.now().getTime() / 1000);

  const commandEntities = (text: string): MessageEntity[] | undefined => {
    if (!text.startsWith("/")) return undefined;
    const end = text.search(/\s/u);
    return [{ type: "bot_command", offset: 0, length: end < 0 ? text.length : end }];
  };

  type IncomingMessage = NonNullable<Update["message"]>;
  function message(from: User, chatId: number, text: string, extra: Partial<Message> = {}): IncomingMessage {
    known.set(from.id, from);
    const chat = chatId < 0 ? { id: chatId, type: "supergroup" as const, title: "Crypto Group" } : { id: chatId, type: "private" as const, first_name: from.first_name };
    const entities = commandEntities(text);
    return { message_id: ++msgCounter, date: now(), chat, from, text, ...(entities ? { entities } : {}), ...extra } as IncomingMessage;
  }

  const send = (u: Omit<Update, "update_id">): Promise<void> => app.bot.handleUpdate({ update_id: nextUpdate(), ...u } as Update);

  return {
    app,
    clock,
    calls,
    admins,
    screening,
    sleeps,
    errors,
    ...stores,
    /** Queue a one-time answer for the next call of `method`. */
    once(method: string, r: Responder): void {
      const q = queued.get(method) ?? [];
      q.push(r);
      queued.set(method, q);
    },
    /** Calls of one method, payloads only. */
    sent(method: string): Record<string, unknown>[] {
      return calls.filter((c) => c.method === method).map((c) => c.payload);
    },
    /** Texts of sendMessage calls, in order. */
    texts(): string[] {
      return calls.filter((c) => c.method === "sendMessage").map((c) => String(c.payload.text));
    },
    lastText(): string {
      return this.texts().at(-1) ?? "";
    },
    clear(): void {
      calls.length = 0;
    },
    group(from: User, text: string, extra: Partial<Message> = {}): Promise<void> {
      return send({ message: message(from, GROUP_ID, text, extra) });
    },
    edited(from: User, text: string, messageIdToEdit: number): Promise<void> {
      return send({ edited_message: { ...message(from, GROUP_ID, text), message_id: messageIdToEdit, edit_date: now() } as Update["edited_message"] });
    },
    dm(from: User, text: string, extra: Partial<Message> = {}): Promise<void> {
      return send({ message: message(from, from.id, text, extra) });
    },
    forwarded(from: User, text: string, origin: MessageOrigin): Promise<void> {
      return send({ message: { ...message(from, from.id, text), forward_origin: origin } });
    },
    join(user: User, chatId = GROUP_ID): Promise<void> {
      known.set(user.id, user);
      return send({
        chat_member: {
          chat: { id: chatId, type: "supergroup", title: "Crypto Group" },
          from: user,
          date: now(),
          old_chat_member: { status: "left", user },
          new_chat_member: { status: "member", user },
        },
      });
    },
    botPromoted(rights: { canDelete?: boolean; canRestrict?: boolean } = {}, chatId = GROUP_ID): Promise<void> {
      const me: User = { id: BOT_INFO.id, is_bot: true, first_name: "svc", username: "svc_bot" };
      const admin = adminMember(me, "administrator") as Extract<ChatMember, { status: "administrator" }>;
      return send({
        my_chat_member: {
          chat: { id: chatId, type: "supergroup", title: "Crypto Group" },
          from: ADMIN,
          date: now(),
          old_chat_member: { status: "member", user: me },
          new_chat_member: { ...admin, can_delete_messages: rights.canDelete ?? true, can_restrict_members: rights.canRestrict ?? true },
        },
      });
    },
    preCheckout(from: User, payload: string, amount: number, currency = "XTR", id = "pcq-1"): Promise<void> {
      return send({ pre_checkout_query: { id, from, currency, total_amount: amount, invoice_payload: payload } });
    },
    paid(from: User, payload: string, amount: number, chargeId: string): Promise<void> {
      return send({
        message: {
          ...message(from, GROUP_ID, ""),
          text: undefined,
          successful_payment: { currency: "XTR", total_amount: amount, invoice_payload: payload, telegram_payment_charge_id: chargeId, provider_payment_charge_id: "" },
        } as unknown as IncomingMessage,
      });
    },
    async asAdmin(text: string): Promise<void> {
      await this.group(ADMIN, text);
    },
  };
}

export type Harness = ReturnType<typeof createHarness>;
