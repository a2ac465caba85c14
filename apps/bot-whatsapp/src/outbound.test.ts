import { Writable } from "node:stream";
import { reply, text } from "@svc/bot-kernel";
import { pino } from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GROUP_PREFIX, WhatsAppChatPort, type GroupAdmins } from "./chat-port.js";
import { createGraphApi } from "./graph-api.js";
import { WhatsAppSender } from "./outbound.js";
import { APP_SECRET, FakeGraphApi, PHONE_NUMBER_ID, TOKEN, VERIFY_TOKEN } from "./test-harness.js";

const noAdmins: GroupAdmins = { list: async () => [], claimOwner: async () => false, add: async () => "full" };

/**
 * Outbound messages through whatsapp-api-js to a fake Graph API on 127.0.0.1: the request the
 * library builds, and the Cloud API's refusals (rate limit, 24-hour window, invalid recipient,
 * network failure) handled without throwing.
 */
describe("WhatsApp sender", () => {
  let graph: FakeGraphApi;
  let logs: Record<string, unknown>[];
  let retries: (() => void)[];
  let sender: WhatsAppSender;

  beforeAll(async () => {
    graph = await FakeGraphApi.start();
  });
  afterAll(() => graph.close());
  beforeEach(() => {
    logs = [];
    retries = [];
    const log = pino({ level: "debug" }, new Writable({ write: (c: Buffer, _e, cb) => (logs.push(JSON.parse(c.toString()) as Record<string, unknown>), cb()) }));
    const api = createGraphApi({ token: TOKEN, appSecret: APP_SECRET, verifyToken: VERIFY_TOKEN, version: "v23.0", baseUrl: graph.url, timeoutMs: 2000 });
    sender = new WhatsAppSender({ api, phoneNumberId: PHONE_NUMBER_ID, log, retryDelaysMs: [1000, 4000], schedule: (_ms, run) => void retries.push(run) });
  });

  it("sends the Cloud API's request shape: bearer token, group or individual recipient, reply context", async () => {
    const n = graph.requests.length;
    expect(await sender.send({ group: "120363000000000001" }, "hello group", "wamid.IN9")).toMatchObject({ ok: true, id: expect.stringMatching(/^wamid\./u) });
    expect(await sender.send({ phone: "14155550100" }, "hello you")).toMatchObject({ ok: true });
    const [g, p] = graph.requests.slice(n);
    expect(g).toMatchObject({ method: "POST", path: `/v23.0/${PHONE_NUMBER_ID}/messages`, authorization: `Bearer ${TOKEN}` });
    expect(g?.body).toMatchObject({ messaging_product: "whatsapp", recipient_type: "group", to: "120363000000000001", type: "text", text: { body: "hello group" }, context: { message_id: "wamid.IN9" } });
    expect(p?.body).toMatchObject({ recipient_type: "individual", to: "14155550100", text: { body: "hello you" } });
  });

  it("retries after a rate limit (130429) and delivers once the limit has passed", async () => {
    graph.failNext({ code: 130429, status: 429, message: "(#130429) Rate limit hit", details: "Cloud API message throughput has been reached." });
    const before = graph.sent().length;
    expect(await sender.send({ phone: "14155550100" }, "later please")).toEqual({ ok: false, code: 130429, outcome: "retry scheduled" });
    expect(sender.pendingRetries).toBe(1);
    expect(graph.sent().length).toBe(before);
    retries.shift()?.();
    await expect.poll(() => graph.sent().length).toBe(before + 1);
    expect(graph.sent().at(-1)?.text).toBe("later please");
    expect(sender.pendingRetries).toBe(0);
    expect(logs.some((l) => l.code === 130429 && l.level === 40)).toBe(true);
  });

  it("gives up after the last retry and logs it", async () => {
    for (let i = 0; i < 3; i++) graph.failNext({ code: 130429, status: 429 });
    await sender.send({ phone: "14155550100" }, "never");
    retries.shift()?.();
    await expect.poll(() => retries.length).toBe(1);
    retries.shift()?.();
    await expect.poll(() => logs.some((l) => l.msg === "whatsapp send failed after retries; dropped")).toBe(true);
    expect(retries).toHaveLength(0);
  });

  it.each([
    [131047, "Re-engagement message", "the user has not written in the last 24 hours"],
    [131026, "Message undeliverable", "recipient cannot receive it"],
    [131030, "Recipient phone number not in allowed list", "recipient cannot receive it"],
  ])("drops a send refused with %i (%s) politely: no retry, no throw, logged", async (code, message, logged) => {
    graph.failNext({ code, message: `(#${code}) ${message}` });
    expect(await sender.send({ phone: "14155550100" }, "x")).toEqual({ ok: false, code, outcome: "dropped" });
    expect(retries).toHaveLength(0);
    expect(logs.some((l) => l.code === code && String(l.msg).includes(logged))).toBe(true);
  });

  it("retries a network failure (connection dropped) like a temporary error", async () => {
    graph.dropNext = 1;
    expect(await sender.send({ phone: "14155550100" }, "net")).toEqual({ ok: false, code: null, outcome: "retry scheduled" });
    retries.shift()?.();
    await expect.poll(() => graph.sent().at(-1)?.text).toBe("net");
  });

  it("never fails a kernel reply over a refusal, and never deletes, bans or mutes", async () => {
    const port = new WhatsAppChatPort(sender, noAdmins);
    graph.failNext({ code: 131047, message: "(#131047) Re-engagement message" });
    await expect(port.reply({ chatId: `${GROUP_PREFIX}120363000000000001`, messageId: "wamid.IN1" }, reply(text("warning")))).resolves.toBeUndefined();
    expect(await port.deleteMessage()).toBe(false);
    expect(await port.ban()).toBe(false);
    expect(await port.restrict()).toBe(false);
    expect(await port.listAdmins("14155550100")).toEqual([]);
  });
});
