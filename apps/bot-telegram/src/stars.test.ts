import { describe, expect, it } from "vitest";
import { invoicePayload, parsePayload } from "./stars.js";
import { ADMIN, createHarness, GROUP_ID, MEMBER } from "./test-harness.js";

const G = String(GROUP_ID);
const PAYLOAD = invoicePayload("starter", G);

describe("Telegram Stars", () => {
  it("/subscribe sends an XTR invoice for the group; in private it explains", async () => {
    const h = createHarness();
    await h.group(MEMBER, "/subscribe pro");
    expect(h.sent("sendInvoice")).toEqual([
      expect.objectContaining({ chat_id: G, currency: "XTR", payload: invoicePayload("pro", G), prices: [{ label: "Pro (30 days)", amount: 5000 }] }),
    ]);
    expect(h.sent("sendInvoice")[0]).not.toHaveProperty("provider_token");
    await h.dm(MEMBER, "/subscribe");
    expect(h.lastText()).toMatch(/run \/subscribe in the group/u);
  });

  it.each([
    ["our invoice at today's price", PAYLOAD, 1500, "XTR", { ok: true }],
    ["a changed price", PAYLOAD, 1, "XTR", { ok: false, error_message: expect.stringMatching(/no longer valid/u) }],
    ["another currency", PAYLOAD, 1500, "USD", { ok: false }],
    ["a forged payload", "sub1:enterprise:-1", 1500, "XTR", { ok: false }],
  ])("pre-checkout: %s", async (_, payload, amount, currency, expected) => {
    const h = createHarness();
    await h.preCheckout(MEMBER, payload, amount, currency);
    expect(h.sent("answerPreCheckoutQuery")).toEqual([expect.objectContaining({ pre_checkout_query_id: "pcq-1", ...expected })]);
  });

  it("successful_payment upgrades the plan once per charge id", async () => {
    const h = createHarness();
    await h.paid(MEMBER, PAYLOAD, 1500, "charge-1");
    await h.paid(MEMBER, PAYLOAD, 1500, "charge-1"); // Telegram redelivers
    const s = await h.settings.get(G);
    expect(s?.plan).toEqual({ tier: "starter", source: "stars", boundBy: String(MEMBER.id), until: "2026-04-01T09:00:00.000Z" });
    expect(h.texts().filter((t) => t.includes("Thank you"))).toHaveLength(1);
    expect(h.ledger.dump()).toHaveLength(1);
    // A second purchase extends the month instead of restarting it.
    await h.paid(MEMBER, PAYLOAD, 1500, "charge-2");
    expect((await h.settings.get(G))?.plan.until).toBe("2026-05-01T09:00:00.000Z");
    await h.asAdmin("/settings");
    expect(h.lastText()).toMatch(/Plan: starter \(in-app purchase, until 2026-05-01\)/u);
  });

  it("/refund inside 14 business days refunds through refundStarPayment and ends the plan", async () => {
    const h = createHarness();
    await h.paid(MEMBER, PAYLOAD, 1500, "charge-9");
    h.clock.advance(16 * 86_400_000); // 16 calendar days = 12 business days
    await h.group(MEMBER, "/refund");
    expect(h.sent("refundStarPayment")).toEqual([{ user_id: MEMBER.id, telegram_payment_charge_id: "charge-9" }]);
    expect(h.lastText()).toMatch(/Refunded 1500 ⭐/u);
    expect((await h.settings.get(G))?.plan.tier).toBe("free");
    expect((await h.ledger.get("charge-9"))?.refundedAt).not.toBeNull();
    h.clear();
    await h.group(MEMBER, "/refund");
    expect(h.sent("refundStarPayment")).toEqual([]);
    expect(h.lastText()).toMatch(/no purchase of yours to refund/u);
  });

  it("/refund outside 14 business days is refused with the support path", async () => {
    const h = createHarness();
    await h.paid(MEMBER, PAYLOAD, 1500, "charge-10");
    h.clock.advance(19 * 86_400_000); // 19 calendar days = 15 business days
    await h.group(MEMBER, "/refund");
    expect(h.sent("refundStarPayment")).toEqual([]);
    expect(h.lastText()).toMatch(/within 14 business days[\s\S]*\/paysupport/u);
    expect((await h.settings.get(G))?.plan.tier).toBe("starter");
  });

  it("an already-refunded charge is recorded, not an error", async () => {
    const h = createHarness();
    await h.paid(MEMBER, PAYLOAD, 1500, "charge-11");
    h.once("refundStarPayment", () => ({ ok: false, error_code: 400, description: "Bad Request: CHARGE_ALREADY_REFUNDED" }));
    await h.group(MEMBER, "/refund");
    expect(h.errors).toEqual([]);
    expect(h.lastText()).toMatch(/Refunded/u);
  });

  it("a refunded_payment notice ends the plan", async () => {
    const h = createHarness();
    await h.paid(ADMIN, PAYLOAD, 1500, "charge-12");
    await h.app.bot.handleUpdate({
      update_id: 500,
      message: {
        message_id: 1,
        date: 0,
        chat: { id: GROUP_ID, type: "supergroup", title: "Crypto Group" },
        from: ADMIN,
        refunded_payment: { currency: "XTR", total_amount: 1500, invoice_payload: PAYLOAD, telegram_payment_charge_id: "charge-12" },
      },
    });
    expect((await h.settings.get(G))?.plan.tier).toBe("free");
  });

  it("/paysupport opens a payments ticket", async () => {
    const h = createHarness();
    await h.group(MEMBER, "/paysupport I was charged twice");
    expect(h.support.tickets).toEqual([expect.objectContaining({ topic: "payments", text: "I was charged twice", userId: String(MEMBER.id) })]);
  });

  it.each([
    ["sub1:starter:-100123", { plan: "starter", chatId: "-100123" }],
    ["sub1:pro:-100123", { plan: "pro", chatId: "-100123" }],
    ["sub1:pro:-100123:extra", null],
    ["sub2:pro:-100123", null],
    ["sub1:pro:abc", null],
  ])("payload %j", (payload, expected) => {
    expect(parsePayload(payload)).toEqual(expected);
  });
});
