import { InMemoryPlanResolver } from "@svc/bot-kernel";
import { apiKeyFromSecret } from "@svc/server-ports";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APP_SECRET, messagesDelivery, sign, startHarness, VERIFY_TOKEN, type Harness } from "./test-harness.js";

const GROUP_ID = "120363999999999999";
const MEMBER = { from: "14155550199", name: "Mallory" };
const FREE_KEY = apiKeyFromSecret("f".repeat(40));
const STARTER_KEY = apiKeyFromSecret("s".repeat(40));

/**
 * The webhook over real HTTP on 127.0.0.1 (PGlite stores, fake Graph API): Meta's verification
 * challenge, the signature check before any parsing, and bad or repeated deliveries.
 */
describe("WhatsApp webhook", () => {
  let h: Harness;
  let seq = 0;
  const nextId = (): string => `wamid.W${++seq}`;
  const seenRows = async (): Promise<number> => Number(((await h.runtime.dataSource.query(`SELECT count(*)::int AS n FROM bot_seen_events`)) as { n: number }[])[0]?.n);

  beforeAll(async () => {
    h = await startHarness({ env: { WHATSAPP_MAX_BODY_BYTES: "4096" }, plans: new InMemoryPlanResolver().add(FREE_KEY, "free").add(STARTER_KEY, "starter") });
  }, 60_000);
  afterAll(() => h?.close());

  it("answers the verification challenge only with our verify token", async () => {
    const q = (token: string) => `${h.webhookUrl}?hub.mode=subscribe&hub.verify_token=${encodeURIComponent(token)}&hub.challenge=1158201444`;
    const ok = await fetch(q(VERIFY_TOKEN));
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe("1158201444");
    const wrong = await fetch(q("not-the-token-at-all"));
    expect(wrong.status).toBe(403);
    expect(await wrong.json()).toMatchObject({ code: "webhook.verify_token_mismatch" });
    expect((await fetch(`${h.webhookUrl}?hub.mode=subscribe`)).status).toBe(400);
  });

  it("refuses a missing, forged or differently signed delivery with 401, and nothing changes", async () => {
    const before = { seen: await seenRows(), sent: h.graph.requests.length };
    const body = JSON.stringify(messagesDelivery([{ id: nextId(), ...MEMBER, groupId: GROUP_ID, body: "!svc status" }]));
    const cases: [string | null, string][] = [
      [null, "webhook.signature_missing"],
      [sign(body, "another-apps-secret-0000000000000"), "webhook.signature_invalid"],
      [`sha256=${"0".repeat(64)}`, "webhook.signature_invalid"],
      ["md5=abc", "webhook.signature_invalid"],
      // Signed for other bytes: a tampered body.
      [sign(body.replace("status", "monitor")), "webhook.signature_invalid"],
    ];
    for (const [signature, code] of cases) {
      const r = await h.post(body, signature);
      expect(r.status, String(signature)).toBe(401);
      expect(await r.json()).toMatchObject({ code });
    }
    // A malformed body is refused for its signature first: nothing is parsed before the check.
    expect((await h.post("{not json", `sha256=${"1".repeat(64)}`)).status).toBe(401);
    expect(await seenRows()).toBe(before.seen);
    expect(h.graph.requests.length).toBe(before.sent);
    // The same body properly signed is accepted.
    expect((await h.post(body)).status).toBe(200);
    expect(await seenRows()).toBe(before.seen + 1);
    expect(APP_SECRET).not.toBe("");
  });

  it("answers 400 to signed malformed JSON and to JSON that is not a delivery", async () => {
    const bad = await h.post('{"object":"whatsapp_business_account","entry":[');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: "webhook.malformed_json" });
    const odd = await h.post(JSON.stringify({ hello: "world" }));
    expect(odd.status).toBe(400);
    expect(await odd.json()).toMatchObject({ code: "webhook.unexpected_payload" });
  });

  it("refuses oversized bodies with 413 before reading them, declared or streamed", async () => {
    const big = JSON.stringify(messagesDelivery([{ id: nextId(), ...MEMBER, groupId: GROUP_ID, body: "x".repeat(5000) }]));
    const declared = await h.post(big);
    expect(declared.status).toBe(413);
    expect(await declared.json()).toMatchObject({ code: "webhook.payload_too_large" });
    // Without a Content-Length (chunked), the limit applies while reading.
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode(big));
        c.close();
      },
    });
    const chunked = await fetch(h.webhookUrl, { method: "POST", body: stream, duplex: "half", headers: { "content-type": "application/json", "x-hub-signature-256": sign(big) } } as RequestInit);
    expect(chunked.status).toBe(413);
  });

  it("acknowledges unknown objects, fields, message types and statuses without acting", async () => {
    const before = h.graph.requests.length;
    const r = await h.deliver({
      object: "whatsapp_business_account",
      entry: [
        { id: "1", changes: [{ field: "account_update", value: { event: "VERIFIED_ACCOUNT" } }, { field: "message_template_status_update", value: { event: "APPROVED" } }] },
        {
          id: "2",
          changes: [
            {
              field: "messages",
              value: {
                messaging_product: "whatsapp",
                metadata: { display_phone_number: "15550783881", phone_number_id: "106540352242922" },
                messages: [
                  { from: MEMBER.from, id: nextId(), timestamp: "1", type: "sticker", sticker: { id: "9" }, group_id: GROUP_ID },
                  { from: MEMBER.from, id: nextId(), timestamp: "1", type: "reaction", reaction: { message_id: "wamid.X", emoji: "👍" } },
                  { id: "wamid.no-sender", timestamp: "1", type: "text", text: { body: "hi" } },
                  "not even an object",
                ],
                statuses: [{ nonsense: true }],
              },
            },
          ],
        },
      ],
    });
    expect(r.status).toBe(200);
    expect(await r.json()).toMatchObject({ ok: true, handled: 0, ignored: 7, failed: 0 });
    expect((await h.deliver({ object: "page", entry: [] })).status).toBe(200);
    expect(h.graph.requests.length).toBe(before);
  });

  it("processes a redelivered message id once, also within one batch", async () => {
    const id = nextId();
    const msg = { id, from: MEMBER.from, name: MEMBER.name, body: "is https://paypa1.com/verify legit?" };
    const before = h.graph.sent().length;
    const first = await h.deliver(messagesDelivery([msg, msg]));
    expect(await first.json()).toMatchObject({ handled: 1, duplicate: 1 });
    const again = await h.deliver(messagesDelivery([msg]));
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ handled: 0, duplicate: 1 });
    const replies = h.graph.sent().slice(before);
    expect(replies).toHaveLength(1);
    expect(replies[0]).toMatchObject({ to: MEMBER.from, recipientType: "individual", replyTo: id });
  });

  it("reads every message of a batched delivery, and ignores events for another phone number", async () => {
    const before = h.graph.sent().length;
    const r = await h.deliver(
      messagesDelivery([
        { id: nextId(), from: "14155550001", body: "check https://paypa1.com" },
        { id: nextId(), from: "14155550002", body: "and claim-airdrop.top" },
      ]),
    );
    expect(await r.json()).toMatchObject({ handled: 2 });
    expect(h.graph.sent().slice(before).map((s) => s.to)).toEqual(["14155550001", "14155550002"]);
    const other = await h.deliver(messagesDelivery([{ id: nextId(), from: "14155550003", body: "paypa1.com" }], "999999999"));
    expect(await other.json()).toMatchObject({ handled: 0, ignored: 1 });
  });

  it("lets only a Starter key make its sender the owner of a new group", async () => {
    const group = "120363555555555555";
    const say = async (from: string, body: string): Promise<string[]> => {
      const before = h.graph.sent().length;
      expect((await h.deliver(messagesDelivery([{ id: nextId(), from, name: "X", groupId: group, body }]))).status).toBe(200);
      return h.graph.sent().slice(before).map((x) => x.text);
    };
    const owners = async () => (await h.runtime.dataSource.query(`SELECT user_id, role FROM bot_chat_admins WHERE chat_id = $1`, [`group:${group}`])) as unknown[];
    expect((await say("14155550111", `!svc connect ${FREE_KEY}`)).join()).toMatch(/free plan; the WhatsApp bot needs starter or higher/u);
    expect(await owners()).toEqual([]);
    expect((await say("14155550111", "!svc monitor")).join()).toMatch(/is for the admins/u);
    expect((await say("14155550112", `!svc connect ${STARTER_KEY}`)).join("\n")).toMatch(/now uses the starter plan[\s\S]*you are its admin/u);
    expect(await owners()).toEqual([{ user_id: "14155550112", role: "owner" }]);
    expect((await say("14155550112", "!svc status")).join()).toMatch(/Monitoring: on \(policy notify\)/u);
  });
});
