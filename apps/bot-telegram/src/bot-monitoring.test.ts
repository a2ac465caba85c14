import { beforeEach, describe, expect, it } from "vitest";
import { ADMIN, createHarness, GROUP_ID, MEMBER, TRUSTED, type Harness } from "./test-harness.js";

const G = String(GROUP_ID);

async function monitored(policy: "notify" | "delete" | "ban"): Promise<Harness> {
  const h = createHarness();
  await h.botPromoted();
  await h.asAdmin(`/policy ${policy}`);
  await h.asAdmin("/allowlist domain docs.python.org");
  await h.asAdmin("/allowlist user @trent");
  await h.asAdmin("/blocklist add *.zip-drop.net");
  h.clear();
  return h;
}

describe("monitoring under each policy", () => {
  it.each([
    ["notify", [["sendMessage", { chat_id: G, reply_parameters: { message_id: 0, allow_sending_without_reply: true } }]]],
    ["delete", [["deleteMessage", { chat_id: G }], ["sendMessage", { chat_id: G }]]],
    ["ban", [["banChatMember", { chat_id: G, user_id: MEMBER.id }], ["deleteMessage", { chat_id: G }], ["sendMessage", { chat_id: G }]]],
  ] as const)("%s: a screened scam link", async (policy, expected) => {
    const h = await monitored(policy);
    await h.group(MEMBER, "Claim your refund at https://paypa1.com/login today");
    const acted = h.calls.filter((c) => c.method !== "getChatAdministrators");
    expect(acted.map((c) => c.method)).toEqual(expected.map(([m]) => m));
    const warning = h.lastText();
    expect(warning).toContain("paypa1[.]com/login: critical risk (95/100)");
    expect(warning).toContain("/report hxxps://paypa1[.]com/login false_positive");
    if (policy === "notify") expect(h.sent("sendMessage")[0]).toMatchObject({ reply_parameters: { allow_sending_without_reply: true } });
    else expect(h.sent("deleteMessage")[0]).toEqual({ chat_id: G, message_id: expect.any(Number) });
  });

  it.each(["notify", "delete", "ban"] as const)("%s: a blocklisted pattern acts without a risky verdict", async (policy) => {
    const h = await monitored(policy);
    await h.group(MEMBER, "new drop: files.zip-drop.net/abc");
    expect(h.lastText()).toMatch(/blocklist pattern "\*\.zip-drop\.net"/u);
    expect(h.screening.calls).not.toContain("files.zip-drop.net");
    expect(h.sent("deleteMessage")).toHaveLength(policy === "notify" ? 0 : 1);
  });

  it.each(["notify", "delete", "ban"] as const)("%s: an allowlisted domain is left alone", async (policy) => {
    const h = await monitored(policy);
    await h.group(MEMBER, "read https://docs.python.org/3/ please");
    expect(h.calls.filter((c) => c.method !== "getChatAdministrators")).toEqual([]);
  });

  it("an allowlisted user is still checked (accounts get stolen) but not banned", async () => {
    const h = await monitored("ban");
    await h.group(TRUSTED, "paypa1.com");
    expect(h.sent("banChatMember")).toEqual([]);
    expect(h.sent("deleteMessage")).toHaveLength(1);
    expect(h.lastText()).toMatch(/Policy is ban, but the sender is on the allowlist/u);
  });

  it("an admin's risky message is only warned about", async () => {
    const h = await monitored("ban");
    await h.group(ADMIN, "paypa1.com");
    expect(h.sent("banChatMember")).toEqual([]);
    expect(h.sent("deleteMessage")).toEqual([]);
    expect(h.lastText()).toMatch(/Policy is ban, but the sender is an admin/u);
  });

  it("plain chatter costs no API call", async () => {
    const h = await monitored("ban");
    await h.group(MEMBER, "gm everyone, what time is the AMA?");
    expect(h.calls).toEqual([]);
  });

  it("a formatted link whose text shows another site is flagged", async () => {
    const h = await monitored("delete");
    const text = "Log in at paypal.com to claim";
    await h.group(MEMBER, text, { entities: [{ type: "text_link", offset: 10, length: 10, url: "https://secure-login.example.com/claim" }] });
    expect(h.lastText()).toMatch(/link text shows paypal\.com but the link opens something else/u);
    expect(h.sent("deleteMessage")).toHaveLength(1);
  });

  it("wallets in captions are screened too", async () => {
    const h = await monitored("delete");
    await h.group(MEMBER, "", { text: undefined, caption: "send 0.1 ETH to 0x52908400098527886E0F7030069857D2E4169EE7 to verify" } as never);
    expect(h.lastText()).toMatch(/Known drainer wallet/u);
  });

  it("edited messages are scanned (post harmless, edit the link in)", async () => {
    const h = await monitored("delete");
    await h.group(MEMBER, "hello");
    await h.edited(MEMBER, "hello paypa1.com", 101);
    expect(h.sent("deleteMessage")).toEqual([{ chat_id: G, message_id: 101 }]);
  });

  it("falls back to warning when Telegram refuses the delete (no rights)", async () => {
    const h = await monitored("delete");
    h.once("deleteMessage", () => ({ ok: false, error_code: 400, description: "Bad Request: message can't be deleted" }));
    await h.group(MEMBER, "paypa1.com");
    expect(h.errors).toEqual([]);
    expect(h.lastText()).toMatch(/Careful[\s\S]*I could not delete the message/u);
  });

  it("logs actions to the log channel and sends alerts to the chosen destination", async () => {
    const h = await monitored("delete");
    await h.asAdmin("/setlog -100777");
    await h.asAdmin("/alerts me");
    h.clear();
    await h.group(MEMBER, "paypa1.com");
    const to = (id: string) => h.sent("sendMessage").filter((p) => p.chat_id === id).map((p) => String(p.text));
    expect(to("-100777")[0]).toMatch(/Action: deleted \(policy delete\)[\s\S]*User: Mallory @mallory \(id 200\)[\s\S]*Appeal: \/report paypa1\[\.\]com false_positive/u);
    expect(to(String(ADMIN.id))[0]).toMatch(/Alert from chat/u);
  });

  it("monitoring starts when the bot is made admin, and names missing rights", async () => {
    const h = createHarness();
    await h.group(MEMBER, "paypa1.com");
    expect(h.calls).toEqual([]);
    await h.botPromoted({ canDelete: true, canRestrict: false });
    expect(h.lastText()).toMatch(/now protecting this group[\s\S]*Ban users/u);
    h.clear();
    await h.group(MEMBER, "paypa1.com");
    expect(h.sent("deleteMessage")).toHaveLength(1);
  });

  it("/unmonitor stops scanning; commands still work", async () => {
    const h = await monitored("delete");
    await h.asAdmin("/unmonitor");
    h.clear();
    await h.group(MEMBER, "paypa1.com");
    expect(h.calls).toEqual([]);
  });

  it("/status counts scans and actions", async () => {
    const h = await monitored("delete");
    await h.group(MEMBER, "paypa1.com and claim-airdrop.top");
    await h.group(MEMBER, "nothing here");
    await h.group(MEMBER, "/status");
    expect(h.lastText()).toMatch(/Messages scanned: 2[\s\S]*Entities checked: 2[\s\S]*1 deletions[\s\S]*Queue depth: 0/u);
  });

  it("welcome messages greet newcomers", async () => {
    const h = await monitored("notify");
    await h.asAdmin("/welcome set Hi {name}, admins never DM first.");
    h.clear();
    await h.join({ id: 900, is_bot: false, first_name: "Neo" });
    expect(h.lastText()).toBe("Hi Neo, admins never DM first.");
  });
});

describe("anti-raid", () => {
  let h: Harness;
  beforeEach(async () => {
    h = createHarness();
    await h.botPromoted();
    await h.asAdmin("/antiraid 3 1 15");
    await h.asAdmin("/setlog -100777");
    h.clear();
  });

  it("N joins within M minutes lock the group down, muting the raiders, and it lifts itself", async () => {
    for (let i = 1; i <= 3; i++) {
      await h.join({ id: 1000 + i, is_bot: false, first_name: `Raider${i}` });
      h.clock.advance(10_000);
    }
    const mutes = h.sent("restrictChatMember");
    expect(mutes.map((p) => p.user_id)).toEqual([1001, 1002, 1003]);
    const until = Math.ceil(Date.parse("2026-03-02T09:00:20.000Z") / 1000) + 15 * 60;
    expect(mutes[0]).toMatchObject({ chat_id: G, permissions: { can_send_messages: false }, until_date: until });
    expect(h.texts().join("\n")).toMatch(/Raid detected: lockdown on[\s\S]*3 people joined within 1 minute/u);
    expect(h.sent("sendMessage").some((p) => p.chat_id === "-100777" && String(p.text).includes("lockdown started"))).toBe(true);

    await h.join({ id: 1004, is_bot: false, first_name: "Late" });
    expect(h.sent("restrictChatMember").map((p) => p.user_id)).toContain(1004);

    h.clock.advance(15 * 60_000);
    h.clear();
    await h.app.kernel.tick();
    expect(h.texts()[0]).toMatch(/Raid lockdown lifted/u);
    expect(h.sent("sendMessage").some((p) => p.chat_id === "-100777" && String(p.text).includes("lockdown lifted (automatic)"))).toBe(true);
    h.clear();
    await h.join({ id: 1005, is_bot: false, first_name: "Normal" });
    expect(h.sent("restrictChatMember")).toEqual([]);
  });

  it("joins spread wider than the window do not trigger", async () => {
    for (let i = 1; i <= 5; i++) {
      await h.join({ id: 2000 + i, is_bot: false, first_name: `Guest${i}` });
      h.clock.advance(40_000);
    }
    expect(h.sent("restrictChatMember")).toEqual([]);
  });

  it("the lockdown also lifts on the next event without a timer", async () => {
    for (let i = 1; i <= 3; i++) await h.join({ id: 3000 + i, is_bot: false, first_name: `R${i}` });
    h.clock.advance(16 * 60_000);
    h.clear();
    await h.group(MEMBER, "anyone here?");
    expect(h.texts()[0]).toMatch(/Raid lockdown lifted/u);
  });
});

describe("learn mode", () => {
  it("observes without acting, then reports the baseline with allowlist suggestions", async () => {
    const h = createHarness();
    await h.botPromoted();
    await h.asAdmin("/learn 2");
    h.clear();
    for (let i = 0; i < 3; i++) await h.group(MEMBER, `docs: https://github.com/org/repo/issues/${i}`);
    await h.group(MEMBER, "paypa1.com");
    expect(h.calls.filter((c) => c.method !== "getChatAdministrators")).toEqual([]);
    await h.asAdmin("/learn status");
    expect(h.lastText()).toMatch(/Learning in progress[\s\S]*Messages seen: 4[\s\S]*would have acted on 1[\s\S]*github\.com: 3[\s\S]*\/allowlist domain github\.com/u);
    h.clock.advance(2 * 86_400_000 + 1);
    h.clear();
    await h.app.kernel.tick();
    expect(h.lastText()).toMatch(/Learning finished[\s\S]*Monitoring is now on/u);
    h.clear();
    await h.group(MEMBER, "paypa1.com");
    expect(h.sent("deleteMessage")).toHaveLength(1);
  });
});

describe("impersonation", () => {
  const lookalike = { id: 666, is_bot: false, first_name: "\u0410lice", last_name: "W\u0430lker", username: "alice_support" };

  it("a Cyrillic look-alike of an admin's name is flagged on join", async () => {
    const h = createHarness();
    await h.botPromoted();
    h.clear();
    await h.join(lookalike);
    expect(h.lastText()).toMatch(/Possible admin impersonator[\s\S]*name looks identical to admin Alice Walker \(@alice_w\) \(look-alike characters\)/u);
  });

  it("/audit lists the look-alike; /verify says they are not an admin; /banuser bans", async () => {
    const h = createHarness();
    await h.group(lookalike, "DM me for support");
    await h.group({ id: 667, is_bot: false, first_name: "Bob" }, "hi");
    await h.asAdmin("/audit");
    expect(h.lastText()).toMatch(/Compared 2 member\(s\)[\s\S]*\[id 666\] name looks identical to admin Alice Walker/u);
    expect(h.lastText()).not.toMatch(/id 667/u);
    await h.asAdmin("/verify @alice_support");
    expect(h.lastText()).toMatch(/NOT an admin[\s\S]*look-alike/u);
    await h.asAdmin("/banuser @alice_support");
    expect(h.sent("banChatMember")).toEqual([{ chat_id: G, user_id: 666 }]);
  });
});

describe("personal scanning in direct messages", () => {
  it("pasted entities get a verdict each", async () => {
    const h = createHarness();
    await h.dm(MEMBER, "is paypa1.com or docs.python.org legit?");
    const reply = h.lastText();
    expect(reply).toMatch(/CRITICAL risk[\s\S]*paypa1\[\.\]com[\s\S]*LOW risk[\s\S]*docs\[\.\]python\[\.\]org/u);
    expect(h.sent("sendMessage")[0]).toMatchObject({ chat_id: String(MEMBER.id), reply_parameters: { message_id: expect.any(Number) } });
  });

  it("a forwarded message is scanned, and an official-sounding sender is called out", async () => {
    const h = createHarness();
    await h.forwarded(MEMBER, "Your wallet is locked. Verify at https://paypa1.com/verify", { type: "hidden_user", date: 0, sender_user_name: "Technical Support" });
    expect(h.lastText()).toMatch(/Forwarded from Technical Support[\s\S]*never message you first[\s\S]*CRITICAL risk/u);
  });

  it("a forwarded message with a formatted link is scanned by its target", async () => {
    const h = createHarness();
    await h.forwarded(MEMBER, "Claim here", { type: "user", date: 0, sender_user: { id: 5, is_bot: false, first_name: "Eve" } });
    expect(h.lastText()).toMatch(/no link, domain, wallet/u);
    h.clear();
    await h.app.bot.handleUpdate({
      update_id: 77,
      message: {
        message_id: 9,
        date: 0,
        chat: { id: MEMBER.id, type: "private", first_name: "Mallory" },
        from: MEMBER,
        text: "Claim here",
        entities: [{ type: "text_link", offset: 0, length: 10, url: "https://claim-airdrop.top/x" }],
        forward_origin: { type: "user", date: 0, sender_user: { id: 5, is_bot: false, first_name: "Eve" } },
      },
    });
    expect(h.lastText()).toMatch(/Forwarded from Eve[\s\S]*HIGH risk[\s\S]*claim-airdrop\[\.\]top/u);
  });

  it("nothing to check gets a hint", async () => {
    const h = createHarness();
    await h.dm(MEMBER, "hello bot");
    expect(h.lastText()).toMatch(/forward a suspicious message/u);
  });
});
