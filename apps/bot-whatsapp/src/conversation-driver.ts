import { spell, type ConversationDriver, type InMemoryScreening, type Observed, type Person } from "@svc/bot-kernel";
import { apiKeyFromSecret } from "@svc/server-ports";
import { ReusableTestDatabases } from "@svc/persistence";
import { BOOTSTRAP_SECRET, messagesDelivery, startHarness, type Engine } from "./test-harness.js";

/* The shared conversation contract's driver for WhatsApp (`conversationContract` in @svc/bot-kernel). */

/** One migrated database per engine for every conversation of a test file; each starts on emptied bot tables. */
export const whatsappTestDatabases = new ReusableTestDatabases("svc_wa");
const botTables = (t: string): boolean => t.startsWith("bot_") || t === "reports";

const GROUP_ID = "120363025246125486";
const KEY = apiKeyFromSecret(BOOTSTRAP_SECRET);

/** People are their phone numbers (wa_id) on WhatsApp. */
const userOf = (p: Person): { readonly id: string; readonly name: string } =>
  p.role === "admin" ? { id: "14155550100", name: "Alice" } : p.role === "member" ? { id: "14155550101", name: "Mallory" } : { id: String(14155560000 + p.n), name: `Raider ${p.n}` };

/** WhatsApp text formatting as the plain text a user reads: bold headings, italic notes, monospace code. */
const plain = (text: string): string =>
  text
    .split("\n")
    .map((l) => l.replace(/^\*(.*)\*$/u, "$1").replace(/^_(.*)_$/u, "$1"))
    .join("\n")
    .replaceAll("```", "");

/**
 * Drives the WhatsApp bot through its real webhook on 127.0.0.1: each step is a delivery signed
 * with the app secret (`X-Hub-Signature-256`) in the Cloud API's shape, with a new message id;
 * what the bot sent comes back from the fake Graph API's accepted `/messages` requests. WhatsApp
 * is notify-only and the bot reads no joins: no delete, ban, mute or joins.
 */
export function whatsappConversationDriver(engine: Engine): (screening: InMemoryScreening) => Promise<ConversationDriver> {
  return async (screening) => {
    const h = await startHarness({ engine, screening, dataSource: await whatsappTestDatabases.empty(engine, botTables) });
    let seq = 0;
    let seen = 0;
    const deliver = async (from: Person, text: string, inGroup: boolean): Promise<void> => {
      const u = userOf(from);
      const res = await h.deliver(messagesDelivery([{ id: `wamid.CONV${++seq}`, from: u.id, name: u.name, body: text, ...(inGroup ? { groupId: GROUP_ID } : {}) }]));
      if (res.status !== 200) throw new Error(`The webhook answered ${res.status}: ${await res.text()}`);
      const body = (await res.json()) as { failed?: number };
      if (body.failed) throw new Error("The bot failed to handle a delivery");
    };
    return {
      dialect: "whatsapp",
      capabilities: { delete: false, ban: false, mute: false, unmute: false, joins: false },
      // SPEC: whoever first connects a group with a paid key becomes its admin; connecting starts monitoring.
      addBotAsAdmin: () => deliver({ role: "admin" }, `${spell("whatsapp", "connect")} ${KEY}`, true),
      post: (from, text) => deliver(from, text, true),
      command: (from, name, args) => deliver(from, `${spell("whatsapp", name)}${args ? ` ${args}` : ""}`, true),
      dm: (from, text) => deliver(from, text, false),
      join() {
        return Promise.reject(new Error("The WhatsApp bot reads no joins (capabilities.joins is false)"));
      },
      async advance(ms) {
        h.clock.advance(ms);
        await h.runtime.app.kernel.tick();
      },
      async take() {
        const sent = h.graph.sent();
        const fresh = sent.slice(seen);
        seen = sent.length;
        return fresh.map((m): Observed => ({
          kind: "message",
          where: m.recipientType === "group" ? (m.to === GROUP_ID ? "group" : "elsewhere") : "private",
          text: plain(m.text),
        }));
      },
      stored: () => h.dump(),
      close: () => h.close(),
    };
  };
}
