import { InMemoryScreening } from "@svc/bot-kernel";
import { describe, expect, it } from "vitest";
import { discordConversationDriver, type DiscordConversationDriver, type Observed, type Person } from "./testing/conversation-driver.js";

/*
 * The shared admin/member/raider conversation, driven through Discord's wire format. The same
 * steps and expectations as the kernel's conversation contract; once that suite is exported
 * from @svc/bot-kernel this file becomes `conversationContract({ describe, it, expect },
 * "Discord", discordConversationDriver)`.
 */
const screening = () => new InMemoryScreening().set("paypa1.com", "critical", "Looks like paypal.com (one character replaced)").set("claim-airdrop.top", "high", "Suspicious top-level domain and airdrop keyword");
const admin: Person = { role: "admin" };
const member: Person = { role: "member" };
const raider = (n: number): Person => ({ role: "raider", n });
const messages = (o: readonly Observed[], where: "group" | "private" = "group"): string[] => o.flatMap((x) => (x.kind === "message" && x.where === where ? [x.text] : []));
const kinds = (o: readonly Observed[]): string[] => o.map((x) => x.kind);

const withDriver = (body: (d: DiscordConversationDriver) => Promise<void>) => async () => {
  const d = await discordConversationDriver(screening());
  try {
    await d.addBotAsAdmin();
    await d.take();
    await body(d);
  } finally {
    await d.close();
  }
};

describe("conversation: Discord over the fake gateway and REST on 127.0.0.1", () => {
  it(
    "an admin sets the policy; a member's scam link is handled with the reason and the appeal; chatter is left alone",
    withDriver(async (d) => {
      await d.command(admin, "policy", "delete");
      expect(messages(await d.take()).join("\n")).toMatch(/Policy set to delete/u);
      await d.post(member, "Claim your refund at https://paypa1.com/login today");
      const acted = await d.take();
      expect(kinds(acted)).toContain("delete");
      expect(kinds(acted)).not.toContain("ban");
      const warning = messages(acted).join("\n");
      expect(warning).toContain("paypa1[.]com");
      expect(warning).toMatch(/critical|paypal\.com/iu);
      expect(warning).toMatch(/false_positive/u);
      await d.post(member, "gm everyone, what time is the AMA?");
      expect(await d.take()).toEqual([]);
    }),
    30_000,
  );

  it(
    "a member can check and report, but not change the settings",
    withDriver(async (d) => {
      await d.command(member, "policy", "ban");
      expect(messages(await d.take()).join("\n")).toMatch(/for the admins of this group/u);
      await d.command(member, "check", "paypa1.com");
      expect(messages(await d.take()).join("\n")).toMatch(/CRITICAL risk/u);
      await d.command(member, "report", "claim-airdrop.top scam");
      expect(messages(await d.take()).join("\n")).toMatch(/claim-airdrop\[\.\]top is reported as scam/u);
    }),
    30_000,
  );

  it(
    "raiders trip the anti-raid lockdown: timed out, one alert, and it lifts itself",
    withDriver(async (d) => {
      await d.command(admin, "antiraid", "3 1 10");
      expect(messages(await d.take()).join("\n")).toMatch(/Anti-raid on: 3 joins within 1 minute/u);
      for (let n = 1; n <= 3; n++) await d.join(raider(n));
      const tripped = await d.take();
      expect(tripped.filter((x) => x.kind === "mute").map((x) => (x.kind === "mute" ? x.who : null))).toEqual([raider(1), raider(2), raider(3)]);
      expect(messages(tripped).filter((m) => /Raid detected/u.test(m))).toHaveLength(1);
      await d.join(raider(4));
      const late = await d.take();
      expect(messages(late)).toEqual([]);
      expect(kinds(late)).toEqual(["mute"]);
      await d.advance(10 * 60_000);
      expect(messages(await d.take()).join("\n")).toMatch(/Raid lockdown lifted/u);
    }),
    30_000,
  );

  it(
    "a direct message gets a verdict per link",
    withDriver(async (d) => {
      await d.dm(member, "is paypa1.com legit?");
      expect(messages(await d.take(), "private").join("\n")).toMatch(/CRITICAL risk[\s\S]*paypa1\[\.\]com/u);
    }),
    30_000,
  );
});
