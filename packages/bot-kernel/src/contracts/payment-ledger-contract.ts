import type { Payment, PlanGrant } from "../ports.js";
import { defaultSettings } from "../settings.js";
import { at, fresh, PLATFORM, T0, type MakeBotStores, type TestApi } from "./fixture.js";

const DAY = 86_400_000;

export function aPayment(over: Partial<Payment> = {}): Payment {
  return {
    chargeId: fresh("charge"),
    platform: PLATFORM,
    userId: fresh("user"),
    chatId: fresh("chat"),
    plan: "pro",
    amount: 5000,
    currency: "XTR",
    paidAt: T0.toISOString(),
    refundedAt: null,
    ...over,
  };
}

/** A Stars-like grant: 30 days of `pro`, from the end of a running period if any. Counts its calls. */
export function extendingGrant(p: Payment): PlanGrant & { calls: number } {
  const grant = Object.assign(
    (current: Parameters<PlanGrant>[0]) => {
      grant.calls++;
      const s = current ?? defaultSettings(p.chatId, p.platform, T0);
      const running = s.plan.until !== null && Date.parse(s.plan.until) > T0.getTime() ? Date.parse(s.plan.until) : T0.getTime();
      return { ...s, plan: { tier: p.plan, source: "stars" as const, boundBy: p.userId, until: new Date(running + 30 * DAY).toISOString() }, updatedAt: T0.toISOString() };
    },
    { calls: 0 },
  );
  return grant;
}

export function paymentLedgerContract(t: TestApi, name: string, make: MakeBotStores): void {
  const { describe, it, expect } = t;
  describe(`PaymentLedger contract: ${name}`, () => {
    it("records a charge once: a redelivery answers false and changes nothing", async () => {
      const { ledger } = (await make()).stores(PLATFORM);
      const p = aPayment();
      expect(await ledger.record(p)).toBe(true);
      expect(await ledger.record({ ...p, amount: 1, plan: "starter" })).toBe(false);
      expect(await ledger.get(p.chargeId)).toEqual(p);
      expect(await ledger.get(fresh("charge"))).toBeNull();
    });

    it("answers the user's latest purchase that is not refunded", async () => {
      const { ledger } = (await make()).stores(PLATFORM);
      const userId = fresh("user");
      const first = aPayment({ userId, paidAt: at(0).toISOString(), plan: "starter", amount: 1500 });
      const second = aPayment({ userId, paidAt: at(60).toISOString() });
      const someoneElse = aPayment({ paidAt: at(120).toISOString() });
      for (const p of [second, first, someoneElse]) await ledger.record(p);
      expect(await ledger.latestFor(PLATFORM, userId)).toEqual(second);
      await ledger.markRefunded(second.chargeId, at(90));
      expect(await ledger.get(second.chargeId)).toEqual({ ...second, refundedAt: at(90).toISOString() });
      expect(await ledger.latestFor(PLATFORM, userId)).toEqual(first);
      await ledger.markRefunded(first.chargeId, at(91));
      expect(await ledger.latestFor(PLATFORM, userId)).toBeNull();
      expect(await ledger.latestFor("another-platform", someoneElse.userId)).toBeNull();
      await ledger.markRefunded(fresh("charge"), at(92)); // unknown: nothing happens
    });

    it("lists a chat's payments, oldest first, refunded ones included", async () => {
      const { ledger } = (await make()).stores(PLATFORM);
      const chatId = fresh("chat");
      const a = aPayment({ chatId, paidAt: at(10).toISOString() });
      const b = aPayment({ chatId, paidAt: at(0).toISOString(), plan: "starter", amount: 1500 });
      const other = aPayment({ paidAt: at(5).toISOString() });
      for (const p of [a, b, other]) await ledger.record(p);
      await ledger.markRefunded(a.chargeId, at(20));
      expect(await ledger.forChat(PLATFORM, chatId)).toEqual([b, { ...a, refundedAt: at(20).toISOString() }]);
      expect(await ledger.forChat("another-platform", chatId)).toEqual([]);
    });

    it("applies the plan grant with the payment, and not again on redelivery", async () => {
      const { ledger, settings } = (await make()).stores(PLATFORM);
      const p = aPayment();
      const grant = extendingGrant(p);
      expect(await ledger.record(p, grant)).toBe(true);
      expect((await settings.get(p.chatId))?.plan).toEqual({ tier: "pro", source: "stars", boundBy: p.userId, until: new Date(T0.getTime() + 30 * DAY).toISOString() });
      expect(await ledger.record(p, grant)).toBe(false);
      expect(grant.calls).toBe(1);
      expect((await settings.get(p.chatId))?.plan.until).toBe(new Date(T0.getTime() + 30 * DAY).toISOString());
    });

    it("grants exactly once when the same charge is delivered many times at once", async () => {
      const { ledger, settings } = (await make()).stores(PLATFORM);
      const p = aPayment();
      const grant = extendingGrant(p);
      const results = await Promise.all(Array.from({ length: 12 }, () => ledger.record(p, grant)));
      expect(results.filter((r) => r)).toHaveLength(1);
      expect(grant.calls).toBe(1);
      expect((await settings.get(p.chatId))?.plan.until).toBe(new Date(T0.getTime() + 30 * DAY).toISOString());
    });

    it("applies every grant when different charges for one chat arrive at once", async () => {
      const { ledger, settings } = (await make()).stores(PLATFORM);
      const chatId = fresh("chat");
      const payments = Array.from({ length: 4 }, () => aPayment({ chatId }));
      const results = await Promise.all(payments.map((p) => ledger.record(p, extendingGrant(p))));
      expect(results).toEqual([true, true, true, true]);
      expect((await settings.get(chatId))?.plan.until).toBe(new Date(T0.getTime() + 120 * DAY).toISOString());
    });

    it("keeps the rest of the chat's settings when granting", async () => {
      const { ledger, settings } = (await make()).stores(PLATFORM);
      const p = aPayment();
      const before = { ...defaultSettings(p.chatId, PLATFORM, T0), monitoring: true, policy: "ban" as const, blocklist: ["*.top"] };
      await settings.save(before);
      await ledger.record(p, extendingGrant(p));
      expect(await settings.get(p.chatId)).toMatchObject({ monitoring: true, policy: "ban", blocklist: ["*.top"], plan: { tier: "pro", source: "stars" } });
    });

    it("records nothing when the grant fails, so a redelivery can still succeed", async () => {
      const { ledger, settings } = (await make()).stores(PLATFORM);
      const p = aPayment();
      const failing: PlanGrant = () => {
        throw new Error("grant failed");
      };
      await expect(ledger.record(p, failing)).rejects.toThrow("grant failed");
      expect(await ledger.get(p.chargeId)).toBeNull();
      const elsewhere: PlanGrant = (cur) => ({ ...(cur ?? defaultSettings(p.chatId, p.platform, T0)), chatId: fresh("chat") });
      await expect(ledger.record(p, elsewhere)).rejects.toThrow();
      expect(await ledger.get(p.chargeId)).toBeNull();
      expect(await settings.get(p.chatId)).toBeNull();
      expect(await ledger.record(p, extendingGrant(p))).toBe(true);
      expect((await settings.get(p.chatId))?.plan.tier).toBe("pro");
    });
  });
}
