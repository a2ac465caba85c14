import { conversationContract } from "@svc/bot-kernel";
import { apiKeyFromSecret } from "@svc/server-ports";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { whatsappConversationDriver, whatsappTestDatabases } from "./conversation-driver.js";
import { BOOTSTRAP_SECRET, ENGINES, messagesDelivery, startHarness, statusDelivery, type Harness } from "./test-harness.js";

// The shared admin/member/raider conversation through signed webhook deliveries and the fake Graph API on 127.0.0.1.
beforeAll(async () => {
  for (const engine of ENGINES) await whatsappTestDatabases.get(engine);
}, 300_000);
afterAll(() => whatsappTestDatabases.close());
for (const engine of ENGINES) conversationContract({ describe, it, expect }, `WhatsApp over signed webhooks and the fake Graph API on 127.0.0.1 (${engine})`, whatsappConversationDriver(engine));

/**
 * What only WhatsApp does, as one group meets the bot, through the real webhook (signed
 * deliveries over HTTP on 127.0.0.1), the real stores (PGlite, and PostgreSQL when
 * TEST_DATABASE_URL is set) and a fake Graph API: `!svc` commands only, Starter gating, the first
 * connector as admin, `!svc admin add`, status counters, delivery callbacks.
 */
interface Member {
  readonly id: string;
  readonly name: string;
}

interface Driver {
  /** `who` writes `text` in the group (or privately); the texts the bot sent in answer. */
  say(who: Member, text: string, where?: "group" | "private"): Promise<string[]>;
}

const GROUP_ID = "120363025246125486";
const ALICE: Member = { id: "14155550100", name: "Alice" };
const BOB: Member = { id: "14155550101", name: "Bob" };
const CAROL: Member = { id: "447700900123", name: "Carol" };
const DAVE: Member = { id: "5511987654321", name: "Dave" };
const KEY = apiKeyFromSecret(BOOTSTRAP_SECRET);

type Step = readonly [who: Member, says: string, expect: RegExp | "silence", where?: "group" | "private"];

/** The WhatsApp part of SPEC.md's platform-4 table, in the order a new group meets the bot (the shared contract covers policies, warnings, reports and direct messages). */
const SCRIPT: readonly Step[] = [
  [BOB, "hello everyone, see https://paypa1.com/login", "silence"],
  [BOB, "!svc", /!svc connect <api_key>[\s\S]*!svc admin add <phone>/u],
  [BOB, "!svc report paypa1.com", /needs the starter plan or higher/u],
  [BOB, "!svc monitor", /is for the admins/u],
  [BOB, "!svc connect svc_live_not-a-key", /not a valid API key/u],
  [ALICE, `!svc connect ${KEY}`, /now uses the pro plan[\s\S]*you are its admin/u],
  [BOB, `!svc connect ${KEY}`, /is for the admins/u],
  [BOB, "!svc admin add +1 415 555 0102", /is for the admins/u],
  [ALICE, "!svc admin add +44 7700 900123", /\+447700900123 is now an admin/u],
  [ALICE, "!svc admin add 12", /not a phone number in international format/u],
  [CAROL, "!svc unmonitor", /Monitoring is off/u],
  [BOB, "free money at https://paypa1.com/login", "silence"],
  [CAROL, "!svc monitor", /Monitoring is on \(policy "notify"\)/u],
  [BOB, "Claim your refund at https://paypa1.com/login before midnight", /paypa1\[\.\]com\S*: critical risk[\s\S]*Appeal with !svc report \S+ false_positive/u],
  [BOB, "/check paypa1.com is not a command here", /paypa1\[\.\]com/u],
  [BOB, "!svc report claim-airdrop.top phishing", /reported as phishing/u],
  [BOB, "!svc nonsense", "silence"],
  [BOB, "!svc policy", /Which policy\?/u],
  [BOB, "!svc status", /Messages scanned: 2[\s\S]*Actions taken: 2 warnings/u],
  [DAVE, "!svc status", /works in a group/u, "private"],
  [ALICE, "!svc antiraid 10 1", /!svc antiraid is not available here/u],
];

const SECRET_WORDS = ["Claim your refund", "before midnight", "free money", "is not a command here", "hello everyone"];

describe.each(ENGINES)("WhatsApp conversation (%s)", (engine) => {
  let h: Harness;
  let seq = 0;
  let driver: Driver;

  beforeAll(async () => {
    // The file's migrated database, emptied of what the shared conversations left.
    h = await startHarness({ engine, dataSource: await whatsappTestDatabases.empty(engine, (t) => t.startsWith("bot_") || t === "reports") });
    driver = {
      async say(who, text, where = "group") {
        const before = h.graph.sent().length;
        const id = `wamid.IN${++seq}`;
        const r = await h.deliver(messagesDelivery([{ id, from: who.id, name: who.name, body: text, ...(where === "group" ? { groupId: GROUP_ID } : {}) }]));
        expect(r.status).toBe(200);
        const replies = h.graph.sent().slice(before);
        // Every answer goes back where the message came from, as a reply to it.
        for (const s of replies) {
          expect(s.recipientType).toBe(where === "group" ? "group" : "individual");
          expect(s.to).toBe(where === "group" ? GROUP_ID : who.id);
        }
        return replies.map((s) => s.text);
      },
    };
  }, 300_000);
  afterAll(() => h?.close());

  it("runs the script: gating, first connector is admin, admin add, notify-only scanning, reports, status", async () => {
    for (const [who, says, expected, where] of SCRIPT) {
      const replies = await driver.say(who, says, where);
      if (expected === "silence") expect(replies, `${who.name}: ${says}`).toEqual([]);
      else expect(replies.join("\n---\n"), `${who.name}: ${says}`).toMatch(expected);
    }
    const warning = h.graph.sent().find((s) => s.text.includes("paypa1[.]com") && s.to === GROUP_ID && /risk/iu.test(s.text));
    expect(warning?.replyTo).toMatch(/^wamid\.IN\d+$/u);
  });

  it("stored the admins, the plan, counters and the report, and no message text anywhere", async () => {
    const admins = (await h.runtime.dataSource.query(`SELECT user_id, role FROM bot_chat_admins WHERE chat_id = $1 ORDER BY role DESC`, [`group:${GROUP_ID}`])) as { user_id: string; role: string }[];
    expect(admins).toEqual([{ user_id: ALICE.id, role: "owner" }, { user_id: CAROL.id, role: "admin" }]);
    const [s] = (await h.runtime.dataSource.query(`SELECT policy, monitoring, plan_tier, plan_bound_by, plan_key_hash FROM bot_chat_settings WHERE platform = 'whatsapp' AND chat_id = $1`, [`group:${GROUP_ID}`])) as Record<string, unknown>[];
    expect(s).toMatchObject({ policy: "notify", monitoring: true, plan_tier: "pro", plan_bound_by: ALICE.id });
    const reports = (await h.runtime.dataSource.query(`SELECT entity_value, category, description FROM reports`)) as Record<string, unknown>[];
    expect(reports).toEqual([{ entity_value: "claim-airdrop.top", category: "phishing", description: `Filed from whatsapp chat group:${GROUP_ID}` }]);
    const dump = await h.dump();
    expect(dump).toContain("wamid.IN1");
    for (const words of SECRET_WORDS) expect(dump).not.toContain(words);
    // The API key itself is never stored either (only its hash), and the log carries neither.
    expect(dump).not.toContain(KEY);
    const logged = JSON.stringify(h.logs);
    for (const words of SECRET_WORDS) expect(logged).not.toContain(words);
    expect(logged).not.toContain(KEY);
  });

  it("handles message status callbacks: counted, failures logged, nothing sent back", async () => {
    const before = h.graph.requests.length;
    const r = await h.deliver(
      statusDelivery([
        { id: "wamid.OUT1", status: "sent", timestamp: "1772442001", recipient_id: GROUP_ID, recipient_type: "group", recipient_participant_id: ALICE.id },
        { id: "wamid.OUT1", status: "delivered", timestamp: "1772442002", recipient_id: GROUP_ID, recipient_type: "group", recipient_participant_id: ALICE.id },
        { id: "wamid.OUT2", status: "failed", timestamp: "1772442003", recipient_id: DAVE.id, errors: [{ code: 131047, title: "Re-engagement message" }] },
        { id: "wamid.OUT3", status: "read", timestamp: "1772442004", recipient_id: DAVE.id },
      ]),
    );
    expect(r.status).toBe(200);
    expect(h.runtime.app.statuses).toMatchObject({ sent: 1, delivered: 1, failed: 1, read: 1 });
    expect(h.logs.some((l) => l.msg === "whatsapp message not delivered" && JSON.stringify(l.errors) === "[131047]")).toBe(true);
    expect(h.graph.requests.length).toBe(before);
  });
});
