import type { SupportTicket } from "../ports.js";
import { fresh, PLATFORM, T0, type MakeBotStores, type TestApi } from "./fixture.js";

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
  });
}
