import { formatApiKey } from "@svc/server-ports";
import { beforeEach, describe, expect, it } from "vitest";
import { ADMIN, createHarness, GROUP_ID, MEMBER, type Harness } from "./test-harness.js";

const KEY = formatApiKey(new Uint8Array(32).fill(3));

/** [command, what the admin sees, a Bot API call the command makes (method, payload subset)] */
const COMMANDS: readonly [string, RegExp, [string, Record<string, unknown>]?][] = [
  ["/check paypa1.com", /CRITICAL risk \(95\/100\)[\s\S]*paypa1\[\.\]com[\s\S]*Looks like paypal\.com/u],
  ["/report paypa1.com phishing", /reported as phishing \(rpt_000001\)/u],
  ["/status", /Status[\s\S]*Messages scanned: 0[\s\S]*Queue depth: 0/u],
  ["/start", /svc: scam checks for groups[\s\S]*\/check &lt;entity&gt;[\s\S]*Group admins:/u],
  ["/help", /svc: scam checks for groups/u],
  ["/support the bot deleted my link", /Ticket T-00001 opened/u],
  ["/paysupport", /Payment support[\s\S]*14 business days/u],
  ["/protect", /Protection on[\s\S]*"delete" policy/u],
  ["/monitor", /Monitoring is on/u],
  ["/unmonitor", /Monitoring is off/u],
  ["/policy ban", /Policy set to ban/u],
  ["/alerts me", /Alerts go to you/u],
  ["/antiraid 5 2", /Anti-raid on: 5 joins within 2 minute\(s\)/u],
  ["/welcome set Hi {name}!", /Custom welcome message saved/u],
  ["/learn 3", /Learning mode[\s\S]*For 3 day\(s\)/u],
  [`/connect ${KEY}`, /now uses the starter plan[\s\S]*deleted your message/u, ["deleteMessage", { chat_id: String(GROUP_ID) }]],
  ["/audit", /Impersonation audit/u],
  ["/verify @alice_w", /is a real admin/u],
  ["/banuser 200", /is banned/u, ["banChatMember", { chat_id: String(GROUP_ID), user_id: 200 }]],
  ["/blocklist add *.top", /Added "\*\.top"/u],
  ["/allowlist domain example.org", /Approved example\.org and its subdomains/u],
  ["/setlog -100999", /Actions are logged to -100999/u, ["sendMessage", { chat_id: "-100999" }]],
  ["/settings", /Settings[\s\S]*Policy: delete[\s\S]*Anti-raid: 10 joins \/ 1 min/u],
  ["/subscribe", /^$/u, ["sendInvoice", { chat_id: String(GROUP_ID), currency: "XTR", prices: [{ label: "Starter (30 days)", amount: 1500 }] }]],
];

const EVERYONE = new Set(["/check", "/report", "/status", "/start", "/help", "/support", "/paysupport", "/subscribe"]);

describe("every command, as admin and as member", () => {
  let h: Harness;
  beforeEach(() => {
    h = createHarness();
    h.plans.add(KEY, "starter");
  });

  it.each(COMMANDS)("admin: %s", async (command, expected, call) => {
    await h.group(ADMIN, command);
    expect(h.errors).toEqual([]);
    if (command !== "/subscribe") expect(h.lastText()).toMatch(expected);
    if (call) expect(h.sent(call[0])).toContainEqual(expect.objectContaining(call[1]));
  });

  it.each(COMMANDS)("member: %s", async (command, expected, call) => {
    await h.group(MEMBER, command);
    expect(h.errors).toEqual([]);
    const name = command.split(" ")[0] as string;
    if (EVERYONE.has(name)) {
      if (command !== "/subscribe") expect(h.lastText()).toMatch(expected);
      if (call) expect(h.sent(call[0])).toContainEqual(expect.objectContaining(call[1]));
      return;
    }
    expect(h.lastText()).toMatch(new RegExp(`^Sorry, ${name} is for the admins of this group`, "u"));
    // Refused means refused: no enforcement and no settings change.
    expect(h.sent("banChatMember")).toEqual([]);
    expect(h.sent("deleteMessage")).toEqual([]);
    expect(h.settings.dump()).toEqual([]);
  });

  it("replies under the command, without link previews", async () => {
    await h.group(MEMBER, "/check paypa1.com");
    const [sent] = h.sent("sendMessage");
    expect(sent).toMatchObject({ chat_id: String(GROUP_ID), parse_mode: "HTML", link_preview_options: { is_disabled: true }, reply_parameters: { allow_sending_without_reply: true } });
  });

  it("checks admin rights with getChatAdministrators, cached briefly", async () => {
    await h.group(MEMBER, "/policy ban");
    await h.group(MEMBER, "/monitor");
    expect(h.sent("getChatAdministrators")).toHaveLength(1);
    h.clock.advance(61_000);
    await h.group(MEMBER, "/monitor");
    expect(h.sent("getChatAdministrators")).toHaveLength(2);
  });

  it("a promoted admin gets admin commands once the cache is invalidated by chat_member", async () => {
    await h.group(MEMBER, "/monitor");
    expect(h.lastText()).toMatch(/^Sorry/u);
    h.admins.set(GROUP_ID, [ADMIN, MEMBER]);
    await h.app.bot.handleUpdate({
      update_id: 999,
      chat_member: {
        chat: { id: GROUP_ID, type: "supergroup", title: "Crypto Group" },
        from: ADMIN,
        date: 0,
        old_chat_member: { status: "member", user: MEMBER },
        new_chat_member: { status: "administrator", user: MEMBER, can_be_edited: false, is_anonymous: false, can_manage_chat: true, can_delete_messages: true, can_manage_video_chats: false, can_restrict_members: true, can_promote_members: false, can_change_info: false, can_invite_users: true, can_post_stories: false, can_edit_stories: false, can_delete_stories: false, can_send_welcome_messages: false },
      },
    });
    await h.group(MEMBER, "/monitor");
    expect(h.lastText()).toMatch(/Monitoring is on/u);
  });

  it("anonymous admins (posting as the group) may run admin commands", async () => {
    await h.group({ id: 1087968824, is_bot: true, first_name: "Group", username: "GroupAnonymousBot" }, "/policy notify", { sender_chat: { id: GROUP_ID, type: "supergroup", title: "Crypto Group" } });
    expect(h.lastText()).toMatch(/Policy set to notify/u);
  });

  it.each([
    ["/check", /Tell me what to check[\s\S]*Usage: \/check &lt;entity&gt;/u],
    ["/policy maybe", /"maybe" is not a policy/u],
    ["/antiraid 1 1", /Joins must be between 2/u],
    ["/check hello", /I can't check that/u],
  ])("helpful usage reply for %j", async (command, expected) => {
    await h.group(ADMIN, command);
    expect(h.lastText()).toMatch(expected);
  });

  it("ignores commands addressed to another bot, and answers ones addressed to it", async () => {
    await h.group(ADMIN, "/status@other_bot");
    expect(h.sent("sendMessage")).toEqual([]);
    await h.group(ADMIN, "/status@svc_bot");
    expect(h.lastText()).toMatch(/Status/u);
  });

  it("admin commands in a private chat point to the group", async () => {
    await h.dm(ADMIN, "/policy ban");
    expect(h.lastText()).toMatch(/works in a group where I am an admin/u);
  });

  it("/verify and /banuser work as a reply to the suspect's message", async () => {
    const suspect = { id: 777, is_bot: false, first_name: "\u0410lice", last_name: "Walker" };
    await h.group(suspect, "hello");
    const replyTo = { message_id: 42, date: 0, chat: { id: GROUP_ID, type: "supergroup" as const, title: "Crypto Group" }, from: suspect, text: "hello" } as never;
    await h.group(ADMIN, "/verify", { reply_to_message: replyTo });
    expect(h.lastText()).toMatch(/NOT an admin[\s\S]*look-alike/u);
    await h.group(ADMIN, "/banuser", { reply_to_message: replyTo });
    expect(h.sent("banChatMember")).toContainEqual({ chat_id: String(GROUP_ID), user_id: 777 });
  });

  it("/banuser refuses to ban an admin", async () => {
    await h.group(ADMIN, "/banuser @alice_w");
    expect(h.lastText()).toMatch(/is an admin; I won't ban admins/u);
    expect(h.sent("banChatMember")).toEqual([]);
  });
});
