import { boundByApiKey, refundWindowOpen, type BotKernel, type Clock, type PaymentLedger, type PlanTier } from "@svc/bot-kernel";
import { GrammyError, type Api } from "grammy";
import type { PreCheckoutQuery, SuccessfulPayment, User } from "grammy/types";

/**
 * Plan upgrades paid with Telegram Stars (currency XTR): `/subscribe` sends an invoice in the
 * group, `pre_checkout_query` is answered at once (Telegram waits 10 s at most), and only
 * `successful_payment` grants the plan, once per `telegram_payment_charge_id` however often
 * Telegram redelivers the update. Refunds go through `refundStarPayment` while the SPEC's
 * window of 14 business days is open.
 */
export type PaidPlan = Exclude<PlanTier, "free">;

export interface StarsPrices {
  readonly starter: number;
  readonly pro: number;
}

/** One purchase buys 30 days, the same period as Telegram's Star subscriptions. */
export const PLAN_DAYS = 30;
const PAYLOAD_VERSION = "sub1";

export const invoicePayload = (plan: PaidPlan, chatId: string): string => `${PAYLOAD_VERSION}:${plan}:${chatId}`;

export function parsePayload(payload: string): { plan: PaidPlan; chatId: string } | null {
  const [v, plan, chatId, ...rest] = payload.split(":");
  if (v !== PAYLOAD_VERSION || rest.length > 0 || (plan !== "starter" && plan !== "pro") || !chatId || !/^-?\d{1,20}$/u.test(chatId)) return null;
  return { plan, chatId };
}

export interface StarsDeps {
  readonly api: Api;
  readonly kernel: BotKernel;
  readonly ledger: PaymentLedger;
  readonly clock: Clock;
  readonly prices: StarsPrices;
}

export class Stars {
  constructor(private readonly deps: StarsDeps) {}

  /** Sends the invoice; answers false (and says why) when the chat's plan comes from an API key. */
  async sendInvoice(chatId: string, plan: PaidPlan): Promise<boolean> {
    const s = await this.deps.kernel.settingsFor(chatId);
    if (boundByApiKey(s.plan)) {
      await this.deps.api.sendMessage(chatId, `This group's ${s.plan.tier} plan comes from an svc account's API key (/connect), so there is nothing to buy here. Plans of API-key accounts are managed in the account.`);
      return false;
    }
    const amount = this.deps.prices[plan];
    const title = plan === "pro" ? "svc Pro: 30 days" : "svc Starter: 30 days";
    await this.deps.api.sendInvoice(
      chatId,
      title,
      `Upgrades this group to the ${plan} plan for ${PLAN_DAYS} days. Refunds within 14 business days with /refund; help with /paysupport.`,
      invoicePayload(plan, chatId),
      "XTR",
      [{ label: `${plan === "pro" ? "Pro" : "Starter"} (${PLAN_DAYS} days)`, amount }],
    );
    return true;
  }

  /** Approve only invoices we issued, at today's price, in Stars. */
  async preCheckout(q: PreCheckoutQuery): Promise<void> {
    const p = parsePayload(q.invoice_payload);
    const ok = p !== null && q.currency === "XTR" && q.total_amount === this.deps.prices[p.plan];
    // An API key was bound since the invoice was sent: never take Stars for a plan that cannot apply.
    if (ok && boundByApiKey((await this.deps.kernel.settingsFor(p.chatId)).plan)) {
      await this.deps.api.answerPreCheckoutQuery(q.id, false, { error_message: "This group's plan comes from an svc account's API key; no purchase is needed." });
      return;
    }
    if (ok) await this.deps.api.answerPreCheckoutQuery(q.id, true);
    else await this.deps.api.answerPreCheckoutQuery(q.id, false, { error_message: "This invoice is no longer valid. Please run /subscribe again." });
  }

  /** Grants the plan; false when this charge was already handled (a redelivered update). */
  async paid(from: User, chatId: string, sp: SuccessfulPayment): Promise<boolean> {
    const p = parsePayload(sp.invoice_payload);
    if (p === null || sp.currency !== "XTR") return false;
    const now = this.deps.clock.now();
    // The payment and the plan it buys are stored in one transaction: a crash in between can
    // neither lose the plan of a recorded payment nor grant it twice when Telegram redelivers.
    const grant = this.deps.kernel.purchaseGrant(p.chatId, p.plan, PLAN_DAYS, String(from.id));
    const fresh = await this.deps.ledger.record({
      chargeId: sp.telegram_payment_charge_id,
      platform: "telegram",
      userId: String(from.id),
      chatId: p.chatId,
      plan: p.plan,
      amount: sp.total_amount,
      currency: sp.currency,
      paidAt: now.toISOString(),
      refundedAt: null,
    }, grant);
    if (!fresh) return false;
    const s = await this.deps.kernel.planPurchased(p.chatId);
    if (boundByApiKey(s.plan)) {
      await this.deps.api.sendMessage(chatId, `⭐ Payment received, but this group's ${s.plan.tier} plan comes from an svc account's API key, which a purchase does not change. /refund gives your Stars back.`);
      return true;
    }
    await this.deps.api.sendMessage(chatId, `⭐ Thank you! This group is on the ${p.plan} plan until ${s.plan.until?.slice(0, 10) ?? "further notice"}.`);
    return true;
  }

  /** The buyer's latest purchase, refunded if the window is still open. Answers what to tell them. */
  async refund(user: User): Promise<string> {
    const userId = String(user.id);
    const p = await this.deps.ledger.latestFor("telegram", userId);
    if (!p) return "I found no purchase of yours to refund.";
    const now = this.deps.clock.now();
    if (!refundWindowOpen(new Date(p.paidAt), now)) {
      return `Refunds can be requested within 14 business days of purchase; this one was made on ${p.paidAt.slice(0, 10)}. If something went wrong, /paysupport opens a ticket.`;
    }
    try {
      await this.deps.api.refundStarPayment(user.id, p.chargeId);
    } catch (e) {
      // Already refunded (e.g. by support through another path): record it and move on.
      if (!(e instanceof GrammyError && e.description.includes("CHARGE_ALREADY_REFUNDED"))) throw e;
    }
    await this.deps.ledger.markRefunded(p.chargeId, now);
    const s = await this.deps.kernel.purchasesChanged(p.chatId, await this.deps.ledger.forChat("telegram", p.chatId), PLAN_DAYS);
    const left = s.plan.tier === "free" ? "The group is back on the free plan." : `The group keeps the ${s.plan.tier} plan${s.plan.source === "stars" && s.plan.until ? ` until ${s.plan.until.slice(0, 10)} (other purchases)` : ""}.`;
    return `Refunded ${p.amount} ⭐ for the ${p.plan} plan. ${left}`;
  }

  /** Telegram's own notice of a refund (also for refunds made outside the bot). */
  async refunded(chargeId: string): Promise<void> {
    const p = await this.deps.ledger.get(chargeId);
    if (!p || p.refundedAt !== null) return;
    await this.deps.ledger.markRefunded(chargeId, this.deps.clock.now());
    await this.deps.kernel.purchasesChanged(p.chatId, await this.deps.ledger.forChat("telegram", p.chatId), PLAN_DAYS);
  }
}
