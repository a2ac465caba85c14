import { ProblemSchema, SupportReplySchema, SupportTicketDetailSchema, SupportTicketListSchema } from "@svc/contracts";
import { TypeOrmBotSupportDesk } from "@svc/persistence";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApi, type TestApi } from "./test-support.js";

const engines = (["pglite", "postgres"] as const).filter((e) => e === "pglite" || process.env.TEST_DATABASE_URL);

describe.each(engines)("support tickets for the operator on %s", { timeout: 60_000 }, (engine) => {
  let api: TestApi;
  let operator = "";
  let operatorId = "";
  let customer = "";
  let desk: TypeOrmBotSupportDesk;
  const ids: string[] = [];
  beforeAll(async () => {
    api = await startTestApi(engine);
    ({ key: operator, accountId: operatorId } = await api.account("pro", "operator"));
    ({ key: customer } = await api.account("pro"));
    desk = new TypeOrmBotSupportDesk(api.runtime.dataSource);
    // Tickets as the bots open them (/support in a Telegram group, /paysupport in a DM, one from Discord).
    const open = async (platform: string, chatId: string, text: string, minute: number, topic: "general" | "payments" = "general") =>
      ids.push((await desk.open({ platform, chatId, userId: `u-${minute}`, topic, text, openedAt: new Date(Date.UTC(2026, 2, 2, 9, minute)).toISOString() })).id);
    await open("telegram", "-1001", "the bot deleted my link to our docs", 1);
    await open("telegram", "42", "charged twice for pro", 2, "payments");
    await open("discord", "g-7", "how do I turn off welcomes?", 3);
  }, 120_000);
  afterAll(async () => api?.close());

  const request = (method: "GET" | "POST", path: string, k: string, body?: unknown) =>
    api.app.request(path, { method, headers: { "x-api-key": k, ...(body !== undefined ? { "content-type": "application/json" } : {}) }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const expectProblem = async (res: Response, status: number, code: string) => {
    expect(res.status).toBe(status);
    expect(res.headers.get("content-type")).toContain("application/problem+json");
    expect(ProblemSchema.parse(await res.json()).code).toBe(code);
  };

  it("a customer's key is refused on every route, before anything is looked at (no ticket, no text, no hint an id exists)", async () => {
    for (const [method, path, body] of [
      ["GET", "/v1/admin/support/tickets"],
      ["GET", "/v1/admin/support/tickets?status=nonsense"],
      ["GET", `/v1/admin/support/tickets/${ids[0]}`],
      ["GET", "/v1/admin/support/tickets/T-NOSUCHID"],
      ["POST", `/v1/admin/support/tickets/${ids[0]}/reply`, { text: "I am not the operator" }],
      ["POST", `/v1/admin/support/tickets/${ids[0]}/reply`, { nonsense: true }],
    ] as const) {
      const res = await request(method, path, customer, body);
      const text = await res.clone().text();
      await expectProblem(res, 403, "auth.operator_only");
      expect(text).not.toContain("deleted my link");
    }
    expect((await desk.get(ids[0] as string))?.replies).toEqual([]);
    await expectProblem(await api.app.request("/v1/admin/support/tickets"), 401, "auth.missing_key");
  });

  it("lists the open tickets oldest first, a page at a time, with a signed cursor", async () => {
    const res = await request("GET", "/v1/admin/support/tickets?limit=2", operator);
    expect(res.status).toBe(200);
    const page1 = SupportTicketListSchema.parse(await res.json());
    expect(page1.items.map((t) => t.id)).toEqual(ids.slice(0, 2));
    expect(page1.items[1]).toMatchObject({ platform: "telegram", chat_id: "42", topic: "payments", text: "charged twice for pro", status: "open", reply_count: 0, answered_at: null });
    expect(page1.next_cursor).toEqual(expect.any(String));
    const page2 = SupportTicketListSchema.parse(await (await request("GET", `/v1/admin/support/tickets?limit=2&cursor=${encodeURIComponent(page1.next_cursor as string)}`, operator)).json());
    expect(page2).toEqual({ items: [expect.objectContaining({ id: ids[2], platform: "discord" })], next_cursor: null });
    // A forged cursor, or one from another status's list, is refused.
    await expectProblem(await request("GET", `/v1/admin/support/tickets?cursor=${encodeURIComponent(`x${page1.next_cursor}`)}`, operator), 422, "request.invalid_cursor");
    await expectProblem(await request("GET", `/v1/admin/support/tickets?status=all&cursor=${encodeURIComponent(page1.next_cursor as string)}`, operator), 422, "request.invalid_cursor");
    await expectProblem(await request("GET", "/v1/admin/support/tickets?status=closed", operator), 422, "request.invalid");
  });

  it("an answer is stored pending delivery, the ticket becomes answered, and it leaves the open list", async () => {
    const res = await request("POST", `/v1/admin/support/tickets/${ids[1]}/reply`, operator, { text: "  Refunded the second charge; it shows within a day.  " });
    expect(res.status, await res.clone().text()).toBe(201);
    const reply = SupportReplySchema.parse(await res.json());
    expect(reply).toMatchObject({ text: "Refunded the second charge; it shows within a day.", operator_id: operatorId, delivery: "pending", delivered_at: null, attempts: 0 });
    const detail = SupportTicketDetailSchema.parse(await (await request("GET", `/v1/admin/support/tickets/${ids[1]}`, operator)).json());
    expect(detail).toMatchObject({ id: ids[1], status: "answered", reply_count: 1, replies: [reply] });
    expect(detail.answered_at).toEqual(expect.any(String));
    const open = SupportTicketListSchema.parse(await (await request("GET", "/v1/admin/support/tickets", operator)).json());
    expect(open.items.map((t) => t.id)).toEqual([ids[0], ids[2]]);
    const answered = SupportTicketListSchema.parse(await (await request("GET", "/v1/admin/support/tickets?status=answered", operator)).json());
    expect(answered.items.map((t) => t.id)).toEqual([ids[1]]);
    // The bot of the ticket's platform finds it in its outbox, addressed to the ticket's chat.
    expect(await desk.claimReplies("discord", new Date(), 60_000, 10)).toEqual([]);
    expect(await desk.claimReplies("telegram", new Date(), 60_000, 10)).toEqual([expect.objectContaining({ id: reply.id, ticketId: ids[1], chatId: "42" })]);
  });

  it("refuses an empty or oversized answer and an unknown ticket with a stable code; Idempotency-Key replays", async () => {
    await expectProblem(await request("POST", `/v1/admin/support/tickets/${ids[0]}/reply`, operator, { text: "   " }), 422, "request.invalid");
    await expectProblem(await request("POST", `/v1/admin/support/tickets/${ids[0]}/reply`, operator, { text: "x".repeat(4001) }), 422, "request.invalid");
    await expectProblem(await request("POST", `/v1/admin/support/tickets/${ids[0]}/reply`, operator, { text: "hi", extra: 1 }), 422, "request.invalid");
    await expectProblem(await request("POST", "/v1/admin/support/tickets/T-NOSUCHID/reply", operator, { text: "hello?" }), 404, "support.ticket_not_found");
    await expectProblem(await request("GET", "/v1/admin/support/tickets/T-NOSUCHID", operator), 404, "support.ticket_not_found");
    const send = () => api.app.request(`/v1/admin/support/tickets/${ids[2]}/reply`, {
      method: "POST", headers: { "x-api-key": operator, "content-type": "application/json", "idempotency-key": "support-reply-1" }, body: JSON.stringify({ text: "Use /welcome off." }),
    });
    const first = await send();
    const again = await send();
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect((await desk.get(ids[2] as string))?.replies).toHaveLength(1);
  });
});
