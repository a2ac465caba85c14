import { BotKernel, type CommandContext } from "../bot-kernel.js";
import type { ChatUser } from "../chat-port.js";
import { InMemoryChatPort } from "../in-memory-chat-port.js";
import { InMemoryPlanResolver } from "../in-memory-plan-resolver.js";
import { InMemoryReportSink } from "../in-memory-report-sink.js";
import { InMemoryScreening } from "../in-memory-screening.js";
import { ManualClock } from "../manual-clock.js";
import { fresh, T0, type MakeBotStores, type TestApi } from "./fixture.js";

/**
 * SPEC data handling: message content in monitored chats is read to extract entities and never
 * stored. A monitored flow (learning, monitoring under a policy, a join, a direct message,
 * /status) runs through the kernel on the stores, then everything the stores keep is searched
 * for the words of the messages.
 */
export function privacyContract(t: TestApi, name: string, make: MakeBotStores): void {
  const { describe, it, expect } = t;
  describe(`Bot stores keep no message text: ${name}`, () => {
    it("after a monitored message flow, nothing stored holds any message's words", async () => {
      const f = await make();
      const platform = "privacy";
      const stores = f.stores(platform);
      const group = fresh("-100group");
      const r = fresh("w").slice(2);
      const admin: ChatUser = { id: fresh("admin"), name: `Alice Walker ${r}`, username: "alice_w" };
      const member: ChatUser = { id: fresh("member"), name: `Mallory ${r}`, username: "mallory" };
      const newcomer: ChatUser = { id: fresh("newcomer"), name: `Newton ${r}` };
      const chat = new InMemoryChatPort().setAdmins(group, [admin]);
      chat.addMember(group, { ...member, status: "member" });
      const screening = new InMemoryScreening().set("paypa1.com", "critical", "Looks like paypal.com").set("claim-airdrop.top", "high", "Suspicious TLD");
      const clock = new ManualClock(T0);
      const kernel = new BotKernel({
        platform, dialect: "telegram", chat, screening, clock,
        settings: stores.settings, stats: stores.stats, members: stores.members, support: stores.support,
        reports: new InMemoryReportSink(), plans: new InMemoryPlanResolver(),
        options: { botUsername: "svc_bot" },
      });
      const ctx = (sender: ChatUser): CommandContext => ({ chatId: group, chatKind: "group", sender, message: { chatId: group, messageId: fresh("m") } });
      let n = 0;
      const post = (sender: ChatUser, text: string) => kernel.onMessage({ ref: { chatId: group, messageId: String(++n) }, sender, text });

      const secrets = [`Confidential-${r}`, `purple-otter-${r}`, `seed phrase ${r}`, `salary-${r}`, `98765${r}`, `Board meeting ${r}`, `hunter2-${r}`, `bank password ${r}`];
      await kernel.onBotMembership(group, { isAdmin: true, canDelete: true, canRestrict: true });
      await kernel.onText(ctx(admin), "/learn 1");
      await post(member, `${secrets[0]}: my ${secrets[2]} hint is ${secrets[1]}, send to paypa1.com`);
      await post(member, `again ${secrets[1]} https://example.org/page?q=${secrets[3]}`);
      // While learning, the registrable domains are counted (and nothing else of the messages).
      // What the kernel writes behind (counters, last-seen times) is written first, so it is searched too.
      await kernel.flush();
      const whileLearning = await f.dump();
      expect(whileLearning).toContain("example.org");
      for (const secret of secrets) expect(whileLearning).not.toContain(secret);
      await kernel.onText(ctx(admin), "/learn stop");
      await kernel.onText(ctx(admin), "/policy ban");
      await post(member, `Private ${secrets[3]} talk ${secrets[4]} with claim-airdrop.top inside`);
      await post(admin, `${secrets[5]} notes mention docs.python.org only`);
      await kernel.onJoin({ chatId: group, user: newcomer });
      clock.advance(60_000);
      await post(newcomer, `hi all, ${secrets[7]} ${secrets[6]} paypa1.com`);
      await kernel.onPrivateMessage({ ref: { chatId: member.id, messageId: "1" }, sender: member, text: `my ${secrets[7]} is ${secrets[6]} and paypa1.com sent me this` });
      await kernel.onText(ctx(member), "/status");

      await kernel.flush();
      const stored = await f.dump();
      for (const secret of secrets) expect(stored).not.toContain(secret);
      // The dump does see what is meant to be kept: member names, counts, settings.
      expect(stored).toContain(member.name);
      expect(stored).toContain(newcomer.name);
      expect((await stores.stats.get(group)).messages_scanned).toBe(5);
      expect((await stores.settings.get(group))?.policy).toBe("ban");
    });
  });
}
