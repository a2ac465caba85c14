import { ManualClock } from "@svc/bot-kernel";
import { apiKeyFromSecret } from "@svc/server-ports";
import type { Update, User } from "grammy/types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "./config.js";
import { buildContainer, type BotRuntime } from "./container.js";
import { invoicePayload } from "./stars.js";
import { FakeBotApi } from "./fake-bot-api.js";
import { ADMIN, BOT_INFO, GROUP_ID, MEMBER, TOKEN } from "./test-harness.js";

const SECRET = "b".repeat(40);
const GROUP = { id: GROUP_ID, type: "supergroup" as const, title: "Crypto Group" };

/**
 * The real composition root on an in-memory PGlite (SVC_DATA_DIR=memory://): the TypeORM stores,
 * the API's report and key stores, migrations, and grammY talking HTTP to a fake Bot API on
 * 127.0.0.1 at the configured TELEGRAM_API_ROOT, which records each call.
 */
describe("composition root on embedded PGlite", () => {
  let rt: BotRuntime;
  const clock = new ManualClock("2026-03-02T09:00:00.000Z");
  let updateId = 0;
  let messageId = 0;

  // The fake Bot API over HTTP on 127.0.0.1, reached through TELEGRAM_API_ROOT as a self-hosted Bot API server would be.
  const api = new FakeBotApi(clock, BOT_INFO.id);
  api.admins.set(GROUP_ID, [ADMIN]);
  const calls = api.calls;
  let server: Awaited<ReturnType<FakeBotApi["listen"]>>;
  const send = (u: Omit<Update, "update_id">): Promise<void> => rt.app.bot.handleUpdate({ update_id: ++updateId, ...u } as Update);
  const say = (from: User, text: string) =>
    send({ message: { message_id: ++messageId, date: 0, chat: GROUP, from, text, ...(text.startsWith("/") ? { entities: [{ type: "bot_command", offset: 0, length: text.split(" ")[0]?.length ?? 1 }] } : {}) } });
  const sent = (method: string) => calls.filter((c) => c.method === method).map((c) => c.payload);
  const db = <T>(sql: string, params: unknown[] = []): Promise<T[]> => rt.dataSource.query(sql, params);

  beforeAll(async () => {
    server = await api.listen(TOKEN);
    const config = parseConfig({ TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_API_ROOT: server.apiRoot, SVC_BOOTSTRAP_KEY: SECRET, SVC_DATA_DIR: "memory://" });
    // No screening override: the bot screens through the API's composition on this database.
    rt = await buildContainer(config, { clock, botInfo: BOT_INFO });
  }, 120_000);
  afterAll(async () => {
    await rt?.close();
    await server?.close();
  });

  it("builds the app once, and resolves the bootstrap key to a plan", async () => {
    expect(rt.app.kernel.queueDepth).toBe(0);
    expect(await rt.storage.stores.plans.planForKey(apiKeyFromSecret(SECRET))).toBe("pro");
  });

  it("handles a promotion and a scanned message end to end, keeping state in the database and no message text", async () => {
    const me: User = { id: BOT_INFO.id, is_bot: true, first_name: "svc", username: BOT_INFO.username };
    await send({
      my_chat_member: {
        chat: GROUP, from: ADMIN, date: 0,
        old_chat_member: { status: "member", user: me },
        new_chat_member: {
          status: "administrator", user: me, can_be_edited: false, is_anonymous: false, can_manage_chat: true, can_delete_messages: true,
          can_manage_video_chats: false, can_restrict_members: true, can_promote_members: false, can_change_info: false, can_invite_users: false,
          can_post_stories: false, can_edit_stories: false, can_delete_stories: false, can_send_welcome_messages: false,
        },
      },
    });
    calls.length = 0;
    await say(MEMBER, "Confidential: my seed phrase hint is purple-otter, claim at paypa1.com");
    expect(sent("deleteMessage")).toEqual([{ chat_id: String(GROUP_ID), message_id: messageId }]);
    expect(String(sent("sendMessage")[0]?.text)).toContain("paypa1[.]com");

    const [settings] = await db<{ monitoring: boolean; policy: string }>(`SELECT monitoring, policy FROM bot_chat_settings WHERE platform = 'telegram' AND chat_id = $1`, [String(GROUP_ID)]);
    expect(settings).toEqual({ monitoring: true, policy: "delete" });
    // Counters are written behind the messages, in batches (StoreBuffers); close() and the timer write them too.
    await rt.app.kernel.flush();
    const stats = await db<{ counter: string; value: string | number }>(`SELECT counter, value FROM bot_chat_stats WHERE chat_id = $1`, [String(GROUP_ID)]);
    expect(Object.fromEntries(stats.map((r) => [r.counter, Number(r.value)]))).toMatchObject({ messages_scanned: 1, entities_checked: 1, deletions: 1 });
    expect(await db(`SELECT user_id, name, username FROM bot_members WHERE chat_id = $1`, [String(GROUP_ID)])).toEqual([{ user_id: String(MEMBER.id), name: "Mallory", username: "mallory" }]);

    // Every row of every table, as text: the words of the message are nowhere.
    const tables = (await db<{ table_name: string }>(`SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`)).map((r) => r.table_name);
    expect(tables).toEqual(expect.arrayContaining(["bot_chat_settings", "bot_chat_stats", "bot_members", "bot_payments", "bot_support_tickets"]));
    let everything = "";
    for (const t of tables) everything += (await db<{ rows: string }>(`SELECT coalesce(json_agg(x)::text, '') AS rows FROM "${t}" x`))[0]?.rows ?? "";
    expect(everything).toContain("Mallory");
    for (const word of ["Confidential", "seed phrase", "purple-otter", "claim at"]) expect(everything).not.toContain(word);
  });

  it("binds a plan with /connect through the API's key store", async () => {
    calls.length = 0;
    await say(ADMIN, `/connect ${apiKeyFromSecret(SECRET)}`);
    expect(sent("deleteMessage")).toHaveLength(1);
    const [row] = await db<{ plan_tier: string; plan_source: string; plan_key_hash: string }>(`SELECT plan_tier, plan_source, plan_key_hash FROM bot_chat_settings WHERE chat_id = $1`, [String(GROUP_ID)]);
    expect(row).toMatchObject({ plan_tier: "pro", plan_source: "api_key" });
    expect(row?.plan_key_hash).toMatch(/^[0-9a-f]{64}$/u);
  });

  it("records a Stars payment once per charge id; the API-key plan bound above stands", async () => {
    const payment = (chargeId: string) =>
      send({
        message: {
          message_id: ++messageId, date: 0, chat: GROUP, from: MEMBER,
          successful_payment: { currency: "XTR", total_amount: 1500, invoice_payload: invoicePayload("starter", String(GROUP_ID)), telegram_payment_charge_id: chargeId, provider_payment_charge_id: "" },
        },
      } as Omit<Update, "update_id">);
    await Promise.all([payment("charge-e2e"), payment("charge-e2e")]);
    expect(await db(`SELECT charge_id, plan, amount FROM bot_payments`)).toEqual([{ charge_id: "charge-e2e", plan: "starter", amount: 1500 }]);
    const [row] = await db<{ plan_tier: string; plan_source: string; plan_until: Date }>(`SELECT plan_tier, plan_source, plan_until FROM bot_chat_settings WHERE chat_id = $1`, [String(GROUP_ID)]);
    expect(row).toMatchObject({ plan_tier: "pro", plan_source: "api_key", plan_until: null });
    expect(sent("sendMessage").filter((m) => String(m.text).includes("Payment received"))).toHaveLength(1);
  });

  it("a /report an operator confirms, and an `svc intel import`, reach the bot's verdicts", async () => {
    const { TypeOrmIntelStore, TypeOrmReportRepository } = await import("@svc/persistence");
    const lastText = (): string => String(sent("sendMessage").at(-1)?.text);
    // Ordinary names unknown to the bundled data: low risk.
    await say(MEMBER, "/check northgate-plumbing.com");
    expect(lastText()).toMatch(/LOW risk/u);
    await say(MEMBER, "/check riverside-choir.net");
    expect(lastText()).toMatch(/LOW risk/u);

    // A member reports one through the bot; an operator confirms it (as `svc reports` / the API's moderation does).
    await say(MEMBER, "/report northgate-plumbing.com phishing");
    const reports = new TypeOrmReportRepository(rt.dataSource);
    const page = await reports.list({ status: "unverified", limit: 10 });
    const filed = page.items.find((r) => r.entity.value === "northgate-plumbing.com");
    expect(filed?.reporter_id).toBe(`telegram:${MEMBER.id}`);
    await reports.moderate(filed?.id as string, { status: "confirmed", by: "acc_operator", reason: null, at: clock.now() });
    // The other is imported from a feed, as `svc intel import` stores it.
    await new TypeOrmIntelStore(rt.dataSource).upsert([{ type: "domain", value: "riverside-choir.net", list: "block", label: "phishing", source: "partner-feed" }]);

    clock.advance(11 * 60_000); // past the bot's short verdict cache
    await say(MEMBER, "/check northgate-plumbing.com");
    expect(lastText()).toMatch(/(HIGH|CRITICAL|MEDIUM) risk/u);
    expect(lastText()).toMatch(/report/iu);
    await say(MEMBER, "/check riverside-choir.net");
    expect(lastText()).toMatch(/(HIGH|CRITICAL) risk/u);
    // And monitoring acts on it in the group.
    calls.length = 0;
    await say(MEMBER, "support desk: https://riverside-choir.net/restore");
    expect(sent("deleteMessage")).toHaveLength(1);
  });
});
