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
import type { ChatMember, Message, MessageEntity, MessageOrigin, Update, User, UserFromGetMe } from "grammy/types";
import { createTelegramApp, type TelegramApp } from "./bot.js";
import { adminMember, FakeBotApi, type Responder } from "./fake-bot-api.js";

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

export const TOKEN = "123456789:AAEhBOweik6ad6PsVMRxjeQKUEGOtnp2WQ0";
export const GROUP_ID = -1001234567890;
export const ADMIN: User = { id: 100, is_bot: false, first_name: "Alice", last_name: "Walker", username: "alice_w" };
export const MEMBER: User = { id: 200, is_bot: false, first_name: "Mallory", username: "mallory" };
export const TRUSTED: User = { id: 300, is_bot: false, first_name: "Trent", username: "trent" };

export type { Call } from "./fake-bot-api.js";

export interface HarnessOptions {
  /** Serve the fake Bot API over HTTP on 127.0.0.1 at this root instead of in-process (see `createHttpHarness`). */
  readonly apiRoot?: string;
  readonly api?: FakeBotApi;
  readonly clock?: ManualClock;
  readonly screening?: InMemoryScreening;
}

export function createHarness(options: HarnessOptions = {}) {
  const clock = options.clock ?? new ManualClock("2026-03-02T09:00:00.000Z");
  const api = options.api ?? new FakeBotApi(clock, BOT_INFO.id);
  const calls = api.calls;
  const admins = api.admins;
  admins.set(GROUP_ID, [ADMIN]);
  const known = api.known;
  for (const u of [ADMIN, MEMBER, TRUSTED]) known.set(u.id, u);

  const screening = options.screening ?? new InMemoryScreening()
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
    token: TOKEN,
    botInfo: BOT_INFO,
    clock,
    screening,
    ...stores,
    prices: { starter: 1500, pro: 5000 },
    ...(options.apiRoot ? { apiRoot: options.apiRoot } : { transport: api.transformer() }),
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
    api,
    clock,
    calls,
    admins,
    screening,
    sleeps,
    errors,
    ...stores,
    /** Queue a one-time answer for the next call of `method`. */
    once(method: string, r: Responder): void {
      api.once(method, r);
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
      api.botRights.set(chatId, { canDelete: rights.canDelete ?? true, canRestrict: rights.canRestrict ?? true });
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

/** The harness with the bot talking HTTP to the fake Bot API on 127.0.0.1 (its `apiRoot`). */
export async function createHttpHarness(options: Pick<HarnessOptions, "screening"> = {}): Promise<Harness & { close(): Promise<void> }> {
  const clock = new ManualClock("2026-03-02T09:00:00.000Z");
  const api = new FakeBotApi(clock, BOT_INFO.id);
  const server = await api.listen(TOKEN);
  return Object.assign(createHarness({ ...options, api, clock, apiRoot: server.apiRoot }), { close: server.close });
}
