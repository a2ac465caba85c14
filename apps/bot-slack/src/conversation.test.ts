import { conversationContract } from "@svc/bot-kernel";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { slackConversationDriver, slackTestDatabases } from "./conversation-driver.js";
import { ADMIN, CHANNEL, createHarness, ENGINES, MEMBER, PRO_KEY, TEAM, type Harness } from "./test-harness.js";

// The shared admin/member/raider conversation through the signed HTTP front and the fake Web API on
// 127.0.0.1. Migrating the shared databases takes seconds: once, before the first conversation.
beforeAll(async () => {
  for (const engine of ENGINES) await slackTestDatabases.get(engine);
}, 300_000);
afterAll(() => slackTestDatabases.close());
for (const engine of ENGINES) conversationContract({ describe, it, expect }, `Slack over signed HTTP and the fake Web API on 127.0.0.1 (${engine})`, slackConversationDriver(engine));

/**
 * What only Slack does, in one workspace through the signed HTTP front: Pro-plan gating, answers
 * that stay ephemeral, Block Kit warnings in the thread of a risky message, edits, and learning.
 */
describe.each(ENGINES)("Slack specifics (%s)", (engine) => {
  let h: Harness;
  beforeAll(async () => {
    // The file's migrated database, emptied of what the shared conversations left.
    h = await createHarness(engine, { dataSource: await slackTestDatabases.empty(engine, (t) => t.startsWith("bot_") || t.startsWith("slack_") || t === "reports") });
    await h.install();
  }, 300_000);
  afterAll(() => h?.close());

  const posted = () => h.api.sent("chat.postMessage");

  it("answers /svc-check before a plan is bound, and gates everything else behind Pro", async () => {
    expect(await h.command(MEMBER, "/svc-check", "paypa1.com")).toMatch(/This bot needs the pro plan or higher/u);
    expect(await h.command(ADMIN, "/svc-monitor", "")).toMatch(/needs the pro plan[\s\S]*\/svc-connect <api_key>/u);
    await h.message(MEMBER, "free money at paypa1.com");
    expect(posted()).toHaveLength(0);
  });

  it("refuses /svc-connect from a member, binds Pro for an admin", async () => {
    expect(await h.command(MEMBER, "/svc-connect", PRO_KEY)).toMatch(/is for the admins/u);
    expect(await h.command(ADMIN, "/svc-connect", "svc_live_nope")).toMatch(/not a valid API key/u);
    expect(await h.command(ADMIN, "/svc-connect", PRO_KEY)).toMatch(/now uses the pro plan, bound by Alice Walker/u);
    const rows = await h.db<{ plan_tier: string; chat_id: string }>(`SELECT plan_tier, chat_id FROM bot_chat_settings WHERE platform = 'slack'`);
    expect(rows).toEqual([{ plan_tier: "pro", chat_id: `${TEAM}:${CHANNEL}` }]);
  });

  it("starts with the notify policy, answers unknown commands, and keeps every answer ephemeral", async () => {
    // Slack's only policy is notify from the start (the kernel's default elsewhere is delete).
    expect(await h.command(ADMIN, "/svc-monitor", "")).toMatch(/Monitoring is on \(policy "notify"\)/u);
    expect(await h.command(MEMBER, "/svc-check", "")).toMatch(/Usage: \/svc-check <entity>/u);
    expect(await h.command(ADMIN, "/svc-nope", "")).toMatch(/I don't know \/svc-nope/u);
    expect(await h.command(MEMBER, "/svc-status", "")).toMatch(/Status[\s\S]*notify/u);
    expect(await h.command(ADMIN, "/svc-welcome", "on")).toMatch(/\/svc-welcome is not available here/u);
    const answer = await h.commandAnswer(MEMBER, "/svc-check", "paypa1.com");
    expect(answer).toMatchObject({ response_type: "ephemeral", text: expect.stringMatching(/CRITICAL risk[\s\S]*Looks like paypal\.com/u) });
    expect(posted()).toHaveLength(0);
  });

  it("warns in the thread of a risky message, with Block Kit and no unfurls", async () => {
    const res = await h.message(MEMBER, "claim now <https://paypa1.com/login|paypal.com/login>");
    expect(res.status).toBe(200);
    const [warning] = posted();
    expect(warning).toMatchObject({ channel: CHANNEL, unfurl_links: "false", unfurl_media: "false" });
    expect(String(warning?.thread_ts)).toMatch(/^\d+\.\d+$/u);
    const blocks = warning?.blocks as { type: string; text?: { text: string } }[];
    expect(blocks[0]).toMatchObject({ type: "header" });
    expect(JSON.stringify(blocks)).toMatch(/paypa1\[\.\]com/u);
    expect(JSON.stringify(blocks)).toMatch(/link text shows paypal\.com[\s\S]*Appeal with \/svc-report \S+ false_positive/u);
    expect(String(warning?.text)).toMatch(/Mallory/u);
    await h.message(MEMBER, "the docs are at https://docs.python.org/3/");
    expect(posted()).toHaveLength(1);
    // Our own warning coming back as an event is not scanned again (no warning loop).
    await h.message({ id: "U0BOTUSER1" }, String(warning?.text), CHANNEL, { bot_id: "B0BOT", app_id: "A0APP" });
    await h.message({ id: "U0OTHER01" }, "hxxps://paypa1[.]com", CHANNEL, { subtype: "bot_message", bot_id: "B0BOT", app_id: "A0APP" });
    expect(posted()).toHaveLength(1);
    // Scammers post something harmless, then edit a link in.
    h.clock.advance(1000);
    await h.event({ type: "message", subtype: "message_changed", channel: CHANNEL, hidden: true, ts: "1772442500.000900", channel_type: "channel",
      message: { type: "message", user: MEMBER.id, text: "edited: claim-airdrop.top", ts: "1772442400.000800", edited: { user: MEMBER.id, ts: "1772442500.000900" } } });
    expect(posted()).toHaveLength(2);
    expect(posted()[1]).toMatchObject({ thread_ts: "1772442400.000800" });
  });

  it("learns, then stops monitoring", async () => {
    expect(await h.command(ADMIN, "/svc-learn", "3")).toMatch(/Learning mode[\s\S]*For 3 day\(s\)/u);
    await h.message(MEMBER, "again paypa1.com");
    expect(posted()).toHaveLength(2);
    expect(await h.command(ADMIN, "/svc-learn", "status")).toMatch(/Messages seen: 1[\s\S]*"notify" policy would have acted on 1/u);
    expect(await h.command(ADMIN, "/svc-learn", "stop")).toMatch(/Monitoring is now on/u);
    expect(await h.command(ADMIN, "/svc-unmonitor", "")).toMatch(/Monitoring is off/u);
    await h.message(MEMBER, "and again paypa1.com");
    expect(posted()).toHaveLength(2);
    expect(h.errors).toEqual([]);
  });

  it("keeps counters, reports, member names and the sealed installation, and no message text or token", async () => {
    await h.command(ADMIN, "/svc-monitor", "");
    await h.command(MEMBER, "/svc-report", "claim-airdrop.top scam");
    await h.message(MEMBER, "Confidential: my seed phrase hint is purple-otter, send to paypa1.com");
    const tables = (await h.db<{ tablename: string }>(`SELECT tablename FROM pg_tables WHERE schemaname = current_schema()`)).map((t) => t.tablename);
    expect(tables).toEqual(expect.arrayContaining(["bot_chat_settings", "bot_chat_stats", "bot_members", "slack_installations", "bot_seen_events", "reports"]));
    let stored = "";
    for (const t of tables) stored += JSON.stringify(await h.db(`SELECT * FROM "${t}"`));
    for (const secret of ["Confidential", "purple-otter", "seed phrase", "free money", "claim now", "again paypa1", "xoxb-"]) expect(stored).not.toContain(secret);
    expect(stored).toContain("claim-airdrop.top");
    expect(stored).toContain("Mallory");
    expect(h.errors).toEqual([]);
  });
});
