import { code, heading, list, note, text } from "@svc/bot-kernel";
import { describe, expect, it } from "vitest";
import { waIdOf } from "./bot.js";
import { recipientOf } from "./chat-port.js";
import { listenAddress, parseConfig } from "./config.js";
import { readDelivery } from "./payload.js";
import { MAX_TEXT, renderText } from "./render.js";
import { APP_SECRET, messagesDelivery, PHONE_NUMBER_ID, TOKEN, VERIFY_TOKEN } from "./test-harness.js";

const env = { WHATSAPP_ACCESS_TOKEN: TOKEN, WHATSAPP_APP_SECRET: APP_SECRET, WHATSAPP_VERIFY_TOKEN: VERIFY_TOKEN, WHATSAPP_PHONE_NUMBER_ID: PHONE_NUMBER_ID };

describe("config", () => {
  it("takes the four Meta values and defaults the rest", () => {
    expect(parseConfig(env)).toMatchObject({ WHATSAPP_API_VERSION: "v23.0", WHATSAPP_GRAPH_URL: "https://graph.facebook.com", WHATSAPP_WEBHOOK_PATH: "/whatsapp/webhook", PORT: 8082 });
  });

  it("listens where HOST says, on all interfaces by default (as the API)", () => {
    expect(listenAddress(parseConfig(env))).toEqual({ hostname: "0.0.0.0", port: 8082 });
    expect(listenAddress(parseConfig({ ...env, HOST: "127.0.0.1", PORT: "9000" }))).toEqual({ hostname: "127.0.0.1", port: 9000 });
  });

  it("names every bad or missing variable", () => {
    expect(() => parseConfig({ ...env, WHATSAPP_PHONE_NUMBER_ID: "+1 415 555 0100", WHATSAPP_VERIFY_TOKEN: "short" })).toThrow(/WHATSAPP_VERIFY_TOKEN: must be at least 16[\s\S]*WHATSAPP_PHONE_NUMBER_ID: must be the numeric phone number id/u);
    expect(() => parseConfig({})).toThrow(/WHATSAPP_ACCESS_TOKEN[\s\S]*WHATSAPP_APP_SECRET/u);
  });
});

describe("phone numbers for !svc admin add", () => {
  it.each([
    ["+44 7700 900123", "447700900123"],
    ["+1 (415) 555-0100", "14155550100"],
    ["0049 30 1234567", "49301234567"],
    ["14155550100", "14155550100"],
  ])("%s → %s", (input, out) => expect(waIdOf(input)).toBe(out));

  it.each(["12", "+0 415 555", "alice", "+1 415 555 0100 9999 9999", ""])("refuses %j", (input) => expect(waIdOf(input)).toBeNull());
});

describe("rendering", () => {
  it("bolds headings, italicises notes, keeps commands copyable and breaks stray code fences", () => {
    const t = renderText({ blocks: [heading("⚠️ Careful"), code("hxxps://paypa1[.]com"), list(["a ```b"]), text("x_y"), note("!svc report x false_positive")], buttons: [{ label: "Docs", url: "https://example.org" }, { label: "Undo", action: "undo:1" }] });
    expect(t).toBe("*⚠️ Careful*\n```hxxps://paypa1[.]com```\n• a '''b\nx_y\n_!svc report x false_positive_\nDocs: https://example.org");
  });

  it("stays within WhatsApp's 4096 characters", () => {
    expect(renderText({ blocks: [text("x".repeat(10_000))] })).toHaveLength(MAX_TEXT);
  });

  it("addresses groups and people apart", () => {
    expect(recipientOf("group:120363")).toEqual({ group: "120363" });
    expect(recipientOf("14155550100")).toEqual({ phone: "14155550100" });
  });
});

describe("reading deliveries", () => {
  it("reads captions and business-scoped senders, and skips what carries no text", () => {
    const d = messagesDelivery([{ id: "wamid.1", from: "1", body: "x" }]) as { entry: { changes: { value: { messages: unknown[] } }[] }[] };
    const value = d.entry[0]?.changes[0]?.value as { messages: unknown[] };
    value.messages = [
      { from_user_id: "US.13491208655302741918", id: "wamid.2", timestamp: "1", type: "image", image: { id: "m", caption: "see paypa1.com" }, group_id: "g1" },
      { from: "2", id: "wamid.3", timestamp: "1", type: "audio", audio: { id: "a" } },
    ];
    const r = readDelivery(d);
    expect(r).toEqual({
      ok: true,
      events: [
        { kind: "message", phoneNumberId: PHONE_NUMBER_ID, id: "wamid.2", from: "US.13491208655302741918", name: null, groupId: "g1", type: "image", text: "see paypa1.com", forwarded: false },
        { kind: "message", phoneNumberId: PHONE_NUMBER_ID, id: "wamid.3", from: "2", name: null, groupId: null, type: "audio", text: null, forwarded: false },
      ],
    });
  });

  it("refuses what is not a delivery at all", () => {
    expect(readDelivery([1, 2])).toMatchObject({ ok: false });
    expect(readDelivery({ object: "whatsapp_business_account", entry: "nope" })).toMatchObject({ ok: false });
  });
});
