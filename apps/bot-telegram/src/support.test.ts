import { ManualClock } from "@svc/bot-kernel";
import type { Update } from "grammy/types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// The real API, on the same database as the bot (as a deployment shares DATABASE_URL).
import { startTestApi, type TestApi } from "@svc/server/testing";
import { parseConfig } from "./config.js";
import { buildContainer, type BotRuntime } from "./container.js";
import { FakeBotApi } from "./fake-bot-api.js";
import { ADMIN, BOT_INFO, GROUP_ID, MEMBER, TOKEN } from "./test-harness.js";

const engines = (["pglite", "postgres"] as const).filter((e) => e === "pglite" || process.env.TEST_DATABASE_URL);
const GROUP = { id: GROUP_ID, type: "supergroup" as const, title: "Crypto Group" };

/**
 * Defect 14 end to end: a member opens a ticket with /support through the Bot API wire format
 * (grammY over HTTP to a fake Bot API on 127.0.0.1), the operator reads and answers it over
 * HTTP through the real API on 127.0.0.1, and the bot's timer delivers the answer to the
 * group the ticket came from: exactly once, however often the timer runs.
 */
describe.each(engines)("support answers reach the Telegram user (%s)", { timeout: 120_000 }, (engine) => {
  let api: TestApi;
  let apiUrl = "";
  let operator = "";
  let customer = "";
  let rt: BotRuntime;
  let fake: Awaited<ReturnType<FakeBotApi["listen"]>>;
  const clock = new ManualClock("2026-03-02T09:00:00.000Z");
  const bot = new FakeBotApi(clock, BOT_INFO.id);
  bot.admins.set(GROUP_ID, [ADMIN]);
  let updateId = 0;
  let messageId = 0;
  const say = (text: string) =>
    rt.app.bot.handleUpdate({
      update_id: ++updateId,
      message: { message_id: ++messageId, date: 0, chat: GROUP, from: MEMBER, text, entities: [{ type: "bot_command", offset: 0, length: text.split(" ")[0]?.length ?? 1 }] },
    } as Update);
  const texts = () => bot.calls.filter((c) => c.method === "sendMessage").map((c) => ({ chat_id: String(c.payload.chat_id), text: String(c.payload.text) }));

  beforeAll(async () => {
    api = await startTestApi(engine);
    ({ key: operator } = await api.account("pro", "operator"));
    ({ key: customer } = await api.account("pro"));
    apiUrl = await api.listen();
    fake = await bot.listen(TOKEN);
    const config = parseConfig({ TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_API_ROOT: fake.apiRoot, SVC_DATA_DIR: "memory://" });
    rt = await buildContainer(config, { clock, botInfo: BOT_INFO, dataSource: api.runtime.dataSource });
  }, 180_000);
  afterAll(async () => {
    await rt?.close();
    await fake?.close();
    await api?.close();
  });

  const call = (method: "GET" | "POST", path: string, key: string, body?: unknown) =>
    fetch(`${apiUrl}${path}`, { method, headers: { "x-api-key": key, ...(body !== undefined ? { "content-type": "application/json" } : {}) }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });

  it("ticket opened by /support, answered by the operator over the API, delivered to the chat once", async () => {
    await say("/support the bot deleted my link to our docs");
    const opened = texts().at(-1);
    const ticket = /Ticket (T-[0-9A-Z]{8}) opened/u.exec(opened?.text ?? "")?.[1];
    expect(ticket, opened?.text).toBeDefined();

    // Another account sees nothing of it.
    expect((await call("GET", "/v1/admin/support/tickets", customer)).status).toBe(403);
    expect((await call("POST", `/v1/admin/support/tickets/${ticket}/reply`, customer, { text: "not mine" })).status).toBe(403);

    const list = (await (await call("GET", "/v1/admin/support/tickets", operator)).json()) as { items: { id: string; text: string; chat_id: string; platform: string }[] };
    expect(list.items.find((t) => t.id === ticket)).toMatchObject({ platform: "telegram", chat_id: String(GROUP_ID), text: "the bot deleted my link to our docs" });
    const answer = "We restored your link; sorry about that. ✅";
    const replied = await call("POST", `/v1/admin/support/tickets/${ticket}/reply`, operator, { text: answer });
    expect(replied.status, await replied.clone().text()).toBe(201);

    bot.calls.length = 0;
    await rt.app.tick();
    await rt.app.tick();
    clock.advance(5 * 60_000);
    await rt.app.tick();
    const delivered = texts().filter((m) => m.text.includes(answer));
    expect(delivered).toEqual([{ chat_id: String(GROUP_ID), text: expect.stringContaining(`ticket ${ticket}`) }]);

    const detail = (await (await call("GET", `/v1/admin/support/tickets/${ticket}`, operator)).json()) as { status: string; replies: { delivery: string; attempts: number }[] };
    expect(detail).toMatchObject({ status: "answered", replies: [{ delivery: "delivered", attempts: 1 }] });
  });

  it("an answer the chat refuses is retried on the next tick, then delivered once", async () => {
    await say("/support second question");
    const ticket = /Ticket (T-[0-9A-Z]{8}) opened/u.exec(texts().at(-1)?.text ?? "")?.[1];
    const answer = `Second answer ${Date.now()}`;
    expect((await call("POST", `/v1/admin/support/tickets/${ticket}/reply`, operator, { text: answer })).status).toBe(201);
    bot.once("sendMessage", () => ({ ok: false, error_code: 400, description: "Bad Request: chat not found" }));
    await rt.app.tick();
    const failed = (await (await call("GET", `/v1/admin/support/tickets/${ticket}`, operator)).json()) as { replies: { delivery: string; last_error: string | null }[] };
    expect(failed.replies[0]).toMatchObject({ delivery: "pending", last_error: expect.stringContaining("chat not found") });
    // Only calls Telegram accepted from here on.
    bot.calls.length = 0;
    await rt.app.tick();
    await rt.app.tick();
    expect(texts().filter((m) => m.text.includes(answer))).toHaveLength(1);
  });
});
