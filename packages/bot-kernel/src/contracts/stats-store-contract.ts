import { STAT_COUNTERS } from "../ports.js";
import { fresh, PLATFORM, type MakeBotStores, type TestApi } from "./fixture.js";

export function statsStoreContract(t: TestApi, name: string, make: MakeBotStores): void {
  const { describe, it, expect } = t;
  describe(`StatsStore contract: ${name}`, () => {
    it("answers every counter, at zero, for a chat it never saw", async () => {
      const { stats } = (await make()).stores(PLATFORM);
      expect(await stats.get(fresh("chat"))).toEqual(Object.fromEntries(STAT_COUNTERS.map((c) => [c, 0])));
    });

    it("adds one by default, or the amount given", async () => {
      const { stats } = (await make()).stores(PLATFORM);
      const chat = fresh("chat");
      await stats.add(chat, "messages_scanned");
      await stats.add(chat, "messages_scanned");
      await stats.add(chat, "entities_checked", 7);
      await stats.add(chat, "bans", 0);
      const s = await stats.get(chat);
      expect(s).toMatchObject({ messages_scanned: 2, entities_checked: 7, bans: 0, deletions: 0 });
      expect(Object.keys(s).sort()).toEqual([...STAT_COUNTERS].sort());
    });

    it("loses no increment when many arrive at once", async () => {
      const { stats } = (await make()).stores(PLATFORM);
      const chat = fresh("chat");
      await Promise.all([
        ...Array.from({ length: 120 }, () => stats.add(chat, "messages_scanned")),
        ...Array.from({ length: 40 }, () => stats.add(chat, "entities_checked", 3)),
        ...Array.from({ length: 20 }, () => stats.add(chat, "deletions")),
      ]);
      expect(await stats.get(chat)).toMatchObject({ messages_scanned: 120, entities_checked: 120, deletions: 20, bans: 0 });
    });

    it("keeps chats and platforms apart", async () => {
      const f = await make();
      const chat = fresh("chat");
      const other = fresh("chat");
      await f.stores("platform-one").stats.add(chat, "reports", 2);
      await f.stores("platform-one").stats.add(other, "reports", 5);
      await f.stores("platform-two").stats.add(chat, "reports", 11);
      expect((await f.stores("platform-one").stats.get(chat)).reports).toBe(2);
      expect((await f.stores("platform-one").stats.get(other)).reports).toBe(5);
      expect((await f.stores("platform-two").stats.get(chat)).reports).toBe(11);
    });
  });
}
