import type { SupportTicket } from "../ports.js";
import { at, fresh, PLATFORM, T0, type MakeBotStores, type TestApi } from "./fixture.js";

export function supportDeskContract(t: TestApi, name: string, make: MakeBotStores): void {
  const { describe, it, expect } = t;
  describe(`SupportDesk contract: ${name}`, () => {
    const ticket = (over: Partial<SupportTicket> = {}): SupportTicket => ({
      platform: PLATFORM, chatId: fresh("chat"), userId: fresh("user"), topic: "general", text: "my message was deleted by mistake", openedAt: T0.toISOString(), ...over,
    });

    it("keeps what the user sent to support and answers a ticket id", async () => {
      const f = await make();
      const { support } = f.stores(PLATFORM);
      const text = `I was charged twice ${fresh("ref")}`;
      const { id } = await support.open(ticket({ topic: "payments", text }));
      expect(id).toMatch(/\S/u);
      expect(await f.dump()).toContain(text);
    });

    it("gives every ticket its own id, also when many are opened at once", async () => {
      const { support } = (await make()).stores(PLATFORM);
      const ids = await Promise.all(Array.from({ length: 20 }, () => support.open(ticket())));
      expect(new Set(ids.map((r) => r.id)).size).toBe(20);
    });

    it("an answer marks the ticket answered and waits in the outbox of the ticket's platform; an unknown ticket takes none", async () => {
      const { support } = (await make()).stores(PLATFORM);
      const platform = fresh("platform");
      const chatId = fresh("chat");
      const { id } = await support.open(ticket({ platform, chatId }));
      expect(await support.get(id)).toMatchObject({ id, platform, chatId, status: "open", answeredAt: null, replyCount: 0, replies: [] });
      const reply = await support.reply(id, "Restored, sorry about that.", "acc_operator", at(5));
      expect(reply).toMatchObject({ text: "Restored, sorry about that.", operatorId: "acc_operator", delivery: "pending", attempts: 0, deliveredAt: null });
      expect(await support.reply(fresh("T"), "to nobody", "acc_operator", at(5))).toBeNull();
      expect(await support.get(id)).toMatchObject({ status: "answered", answeredAt: at(5).toISOString(), replyCount: 1 });
      expect(await support.claimReplies(fresh("platform"), at(6), 60_000, 10)).toEqual([]);
      const claimed = await support.claimReplies(platform, at(6), 60_000, 10);
      expect(claimed).toEqual([{ id: reply?.id, ticketId: id, chatId, text: "Restored, sorry about that.", attempts: 1 }]);
    });

    it("hands an answer to one claimant at a time; delivered, it never comes back; unconfirmed, it comes back after the lease", async () => {
      const { support } = (await make()).stores(PLATFORM);
      const platform = fresh("platform");
      const a = await support.open(ticket({ platform }));
      const b = await support.open(ticket({ platform }));
      await support.reply(a.id, "answer a", "acc_operator", at(1));
      await support.reply(b.id, "answer b", "acc_operator", at(2));
      const rounds = await Promise.all(Array.from({ length: 4 }, () => support.claimReplies(platform, at(3), 60_000, 10)));
      expect(rounds.flat().map((r) => r.text).sort()).toEqual(["answer a", "answer b"]);
      const [ra, rb] = [rounds.flat().find((r) => r.text === "answer a"), rounds.flat().find((r) => r.text === "answer b")];
      await support.delivered(ra?.id as string, at(3));
      // Still leased: nobody takes b; once the lease is over, b (never confirmed) is due again, a is not.
      expect(await support.claimReplies(platform, at(3.5), 60_000, 10)).toEqual([]);
      expect((await support.claimReplies(platform, at(4.5), 60_000, 10)).map((r) => [r.id, r.attempts])).toEqual([[rb?.id, 2]]);
      expect((await support.get(a.id))?.replies[0]).toMatchObject({ delivery: "delivered", deliveredAt: at(3).toISOString() });
    });

    it("a failed send is due again at once; given up, it stays failed with its error", async () => {
      const { support } = (await make()).stores(PLATFORM);
      const platform = fresh("platform");
      const { id } = await support.open(ticket({ platform }));
      await support.reply(id, "answer", "acc_operator", at(1));
      const [first] = await support.claimReplies(platform, at(2), 60_000, 10);
      await support.deliveryFailed(first?.id as string, "chat not found", at(2), false);
      const [again] = await support.claimReplies(platform, at(2), 60_000, 10);
      expect(again).toMatchObject({ id: first?.id, attempts: 2 });
      await support.deliveryFailed(again?.id as string, "bot was blocked by the user", at(2), true);
      expect(await support.claimReplies(platform, at(60), 60_000, 10)).toEqual([]);
      expect((await support.get(id))?.replies[0]).toMatchObject({ delivery: "failed", attempts: 2, lastError: "bot was blocked by the user" });
    });

    it("lists tickets oldest first, by status, a page at a time", async () => {
      const { support } = (await make()).stores(PLATFORM);
      const platform = fresh("platform");
      // Far in the future, so tickets of other tests (sharing the database) sort before these.
      const when = (d: number) => new Date(Date.UTC(2999, 0, 1, 0, 0, d)).toISOString();
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await support.open(ticket({ platform, openedAt: when(i) }))).id);
      await support.reply(ids[1] as string, "done", "acc_operator", at(1));
      const after = { openedAt: when(-1), id: "" };
      const mine = async (status?: "open" | "answered") => (await support.list({ ...(status ? { status } : {}), limit: 100, after })).filter((x) => x.platform === platform).map((x) => x.id);
      expect(await mine()).toEqual(ids);
      expect(await mine("open")).toEqual([ids[0], ids[2], ids[3], ids[4]]);
      expect(await mine("answered")).toEqual([ids[1]]);
      const page1 = await support.list({ limit: 2, after });
      const last = page1.at(-1);
      const page2 = await support.list({ limit: 2, after: last ? { openedAt: last.openedAt, id: last.id } : null });
      expect([...page1, ...page2].map((x) => x.id)).toEqual(ids.slice(0, 4));
    });
  });
}
