import type { Clock } from "@svc/core";
import type { Account } from "@svc/server-ports";
import type { Entitlement, PlanPropagation, SubscriptionState, TypeOrmBillingStore } from "@svc/persistence";
import type { Logger } from "pino";
import type Stripe from "stripe";
import { planWithin, planNames, type PlanCatalog } from "@svc/runtime";
import { problem } from "../problem.js";

/** The plans sold through Stripe, each a recurring price of the operator's Stripe account. */
export const PAID_PLANS = ["starter", "pro"] as const;
export type PaidPlan = (typeof PAID_PLANS)[number];

export interface StripeBillingConfig {
  readonly secretKey: string;
  readonly webhookSecret: string;
  readonly prices: Readonly<Record<PaidPlan, string>>;
  /** The Stripe API's address (tests point it at a local fake). */
  readonly apiUrl?: string;
  readonly toleranceSeconds: number;
}

/**
 * The Stripe SDK (some 470 modules, about 7 MB resident), loaded by a process that sells plans
 * when it makes its client, not by every API (docs/decisions/0082-optional-integrations-loaded-when-configured.md).
 */
let sdk: typeof Stripe | null = null;

/** A Stripe client for the configured address (host, port and protocol: the SDK's own options). */
export async function stripeClient(c: Pick<StripeBillingConfig, "secretKey" | "apiUrl">): Promise<Stripe> {
  sdk ??= (await import("stripe")).default;
  const u = c.apiUrl ? new URL(c.apiUrl) : null;
  const protocol = u?.protocol === "http:" ? "http" : "https";
  return new sdk(c.secretKey, {
    maxNetworkRetries: 2,
    timeout: 15_000,
    ...(u ? { host: u.hostname, port: u.port || (protocol === "http" ? 80 : 443), protocol } : {}),
  });
}

/** Statuses in which a subscription still gives its plan (past_due: Stripe is retrying the payment). */
const GIVING = new Set(["active", "trialing", "past_due"]);

export interface WebhookOutcome {
  readonly duplicate: boolean;
  readonly type: string;
}

/**
 * Stripe Checkout to buy a plan, the Billing Portal to change or cancel it, signed webhooks
 * applied once each, and the operator's refunds. The account's plan is whatever its
 * subscription's last event says; cancellation in the portal is at period end (the portal's
 * configuration), so the plan stays until Stripe sends `customer.subscription.deleted`.
 */
export class StripeBilling {
  constructor(
    private readonly stripe: Stripe,
    private readonly store: TypeOrmBillingStore,
    private readonly config: StripeBillingConfig,
    private readonly plans: PlanCatalog,
    private readonly clock: Clock,
    private readonly logger: Logger,
    /** Told after an account's plan changed (the auth caches forget it). */
    private readonly changed: (accountId: string) => void,
  ) {}

  async status(accountId: string): Promise<{ subscription: Awaited<ReturnType<TypeOrmBillingStore["customer"]>>; entitlements: Entitlement[] }> {
    const [subscription, entitlements] = await Promise.all([this.store.customer(accountId), this.store.ledger(accountId)]);
    return { subscription, entitlements };
  }

  /** A Checkout session for `plan`; the customer is created first (once per account) so every event names it. */
  async checkout(account: Account, plan: PaidPlan, returnUrl: string): Promise<{ id: string; url: string }> {
    if (account.role === "operator") throw problem({ status: 409, code: "billing.operator_account", title: "Not for sale", detail: "The operator's account has no limits; it does not buy plans." });
    const existing = await this.store.customer(account.id);
    if (existing?.subscriptionId && existing.status && GIVING.has(existing.status)) {
      throw problem({ status: 409, code: "billing.already_subscribed", title: "Already subscribed", detail: "This account has a subscription; change or cancel it in the Billing Portal (POST /v1/billing/portal)." });
    }
    const customerId = existing?.customerId ?? (await this.createCustomer(account));
    const session = await this.stripe.checkout.sessions.create({
      mode: "subscription",
      customer: customerId,
      client_reference_id: account.id,
      line_items: [{ price: this.config.prices[plan], quantity: 1 }],
      success_url: `${returnUrl}?checkout=success`,
      cancel_url: `${returnUrl}?checkout=canceled`,
      metadata: { account_id: account.id, plan },
      subscription_data: { metadata: { account_id: account.id, plan } },
    });
    if (!session.url) throw new Error("Stripe returned a Checkout session without a URL");
    return { id: session.id, url: session.url };
  }

  /** A Billing Portal session: change plan, update the card, cancel (at period end). */
  async portal(accountId: string, returnUrl: string): Promise<{ url: string }> {
    const customer = await this.store.customer(accountId);
    if (!customer) throw problem({ status: 409, code: "billing.no_customer", title: "Nothing to manage", detail: "This account has never bought a plan; start with POST /v1/billing/checkout." });
    const session = await this.stripe.billingPortal.sessions.create({ customer: customer.customerId, return_url: returnUrl });
    return { url: session.url };
  }

  /**
   * A webhook delivery: the signature is checked on the raw body against the signing secret
   * and its timestamp must be within the tolerance of our clock (a replay of an old delivery
   * is refused); an event id seen before is acknowledged and changes nothing.
   */
  async webhook(rawBody: string, signature: string | undefined, log: Logger = this.logger): Promise<WebhookOutcome> {
    if (!signature) throw problem({ status: 400, code: "billing.missing_signature", title: "Missing signature", detail: "A Stripe webhook carries a Stripe-Signature header." });
    let event: Stripe.Event;
    try {
      // The age is measured against our clock (milliseconds), so tests and a skewed host agree.
      event = this.stripe.webhooks.constructEvent(rawBody, signature, this.config.webhookSecret, this.config.toleranceSeconds, undefined, this.clock.now().getTime());
    } catch (e) {
      // The signature checked out but the body is not JSON: a broken sender, not a forgery.
      if (e instanceof SyntaxError) throw malformedEvent();
      const detail = e instanceof Error && /timestamp outside the tolerance/i.test(e.message)
        ? "The signature's timestamp is outside the tolerance: an old delivery replayed, or a clock far off."
        : "The Stripe-Signature header does not sign this body with this endpoint's secret.";
      throw problem({ status: 400, code: "billing.invalid_signature", title: "Invalid signature", detail });
    }
    if (typeof event !== "object" || event === null || typeof event.id !== "string" || typeof event.type !== "string") throw malformedEvent();
    const now = this.clock.now();
    const touched = new Set<string>();
    const fresh = await this.store.processOnce(event.id, event.type, now, async (m) => {
      const acc = await this.apply(m, event, now, log);
      if (acc) touched.add(acc);
    });
    for (const a of touched) this.changed(a);
    if (fresh) log.info({ event_id: event.id, type: event.type }, "stripe event applied");
    return { duplicate: !fresh, type: event.type };
  }

  private async apply(m: Parameters<Parameters<TypeOrmBillingStore["processOnce"]>[3]>[0], event: Stripe.Event, now: Date, log: Logger): Promise<string | null> {
    switch (event.type) {
      case "checkout.session.completed": {
        // The customer was linked when the session was made; nothing else to do here: the
        // subscription's own events carry its state.
        return null;
      }
      case "customer.subscription.created":
      case "customer.subscription.updated":
      case "customer.subscription.deleted": {
        const sub = event.data.object;
        const accountId = await this.store.accountOfCustomer(idOf(sub.customer), m);
        if (!accountId) {
          log.warn({ event_id: event.id }, "stripe subscription of an unknown customer ignored");
          return null;
        }
        const item = sub.items.data[0];
        const bought = this.planOfPrice(item?.price.id);
        const giving = event.type !== "customer.subscription.deleted" && GIVING.has(sub.status) && bought !== null;
        const plan = giving ? (bought as string) : "free";
        const state: SubscriptionState = {
          subscriptionId: sub.id, status: sub.status, plan, cancelAtPeriodEnd: sub.cancel_at_period_end,
          currentPeriodEnd: item?.current_period_end ? new Date(item.current_period_end * 1000) : null,
        };
        const applied = await this.store.applySubscription(m, accountId, state, new Date(event.created * 1000), this.propagation(plan), now);
        return applied ? accountId : null;
      }
      case "invoice.paid": {
        const inv = event.data.object;
        if (!inv.customer || !inv.id) return null;
        const accountId = await this.store.accountOfCustomer(idOf(inv.customer), m);
        const line = inv.lines.data[0];
        const price = line?.pricing?.price_details?.price;
        const plan = this.planOfPrice(price === undefined ? undefined : idOf(price));
        if (!accountId || !plan || !line) return null;
        await this.store.recordEntitlement(m, {
          source: "stripe", purchaseRef: inv.id, accountId, chat: null, plan, amount: inv.amount_paid, currency: inv.currency,
          periodStart: new Date(line.period.start * 1000), periodEnd: new Date(line.period.end * 1000),
        }, now);
        return null;
      }
      default:
        return null;
    }
  }

  /**
   * The operator's refund of a Stripe purchase (the latest one unless `entitlementId` says):
   * the invoice's payment is refunded in full, the ledger marks it, and a subscription still
   * running is ended at once, the account back on `free`.
   */
  async refund(accountId: string, entitlementId: string | undefined): Promise<Entitlement> {
    const ledger = await this.store.ledger(accountId);
    const ent = entitlementId ? ledger.find((e) => e.id === entitlementId) : ledger.find((e) => e.source === "stripe" && e.refunded_at === null);
    if (!ent) throw problem({ status: 404, code: "billing.entitlement_not_found", title: "Not found", detail: entitlementId ? `No purchase ${entitlementId} in this account.` : "This account has no purchase left to refund." });
    if (ent.source !== "stripe") throw problem({ status: 409, code: "billing.refund_elsewhere", title: "Refunded elsewhere", detail: "Telegram Stars purchases are refunded in the bot (/refund)." });
    if (ent.refunded_at !== null) return ent;
    const payments = await this.stripe.invoicePayments.list({ invoice: ent.purchase_ref, status: "paid", limit: 10 });
    const intents = payments.data.map((p) => p.payment.payment_intent).filter((p): p is NonNullable<typeof p> => p !== undefined && p !== null).map(idOf);
    if (intents.length === 0) throw problem({ status: 409, code: "billing.nothing_to_refund", title: "Nothing to refund", detail: `Stripe has no paid payment for invoice ${ent.purchase_ref}.` });
    for (const pi of intents) {
      // The idempotency key makes a retried refund (a timeout, a second click) refund once.
      await this.stripe.refunds.create({ payment_intent: pi, reason: "requested_by_customer", metadata: { entitlement_id: ent.id } }, { idempotencyKey: `refund-${ent.id}-${pi}` });
    }
    const now = this.clock.now();
    await this.store.markRefunded("stripe", ent.purchase_ref, now);
    const customer = await this.store.customer(accountId);
    if (customer?.subscriptionId && customer.status && GIVING.has(customer.status)) {
      await this.stripe.subscriptions.cancel(customer.subscriptionId, { prorate: false });
    }
    await this.store.setPlan(accountId, "free", this.propagation("free"));
    this.changed(accountId);
    return (await this.store.entitlement(accountId, ent.id)) ?? ent;
  }

  /** An account being deleted stops paying at once (best effort: the purge does not wait on Stripe). */
  async cancelForDeletion(accountId: string, log: Logger = this.logger): Promise<void> {
    const customer = await this.store.customer(accountId);
    if (!customer) return;
    try {
      if (customer.subscriptionId && customer.status && customer.status !== "canceled") await this.stripe.subscriptions.cancel(customer.subscriptionId, { prorate: true });
      await this.stripe.customers.del(customer.customerId);
    } catch (err) {
      log.error({ err, account_id: accountId }, "stripe cancellation for a deleted account failed; cancel it in the Stripe dashboard");
    }
  }

  private async createCustomer(account: Account): Promise<string> {
    // The idempotency key: two concurrent first checkouts create one customer.
    const c = await this.stripe.customers.create({ name: account.name, metadata: { account_id: account.id } }, { idempotencyKey: `customer-${account.id}` });
    if (!(await this.store.linkCustomer(account.id, c.id, this.clock.now()))) {
      const linked = await this.store.customer(account.id);
      if (linked) return linked.customerId;
    }
    return c.id;
  }

  private planOfPrice(price: string | undefined): PaidPlan | null {
    if (!price) return null;
    return PAID_PLANS.find((p) => this.config.prices[p] === price) ?? null;
  }

  private propagation(plan: string): PlanPropagation {
    return { keyPlansWithin: planNames(this.plans).filter((p) => planWithin(this.plans, p, plan)), botTier: plan === "starter" || plan === "pro" ? plan : "free" };
  }
}

const malformedEvent = () => problem({ status: 400, code: "billing.malformed_event", title: "Malformed event", detail: "The webhook is signed correctly but its body is not a Stripe event (a JSON object with an id and a type)." });

const idOf = (x: string | { id: string }): string => (typeof x === "string" ? x : x.id);

/** A Stripe API failure as a problem: 502, the processor's message kept out of the answer (it is logged). */
export function processorProblem(err: unknown): { status: number; code: string; title: string; detail: string; retryable: boolean } | null {
  // Without the SDK loaded no Stripe call was made, so no error can be Stripe's.
  if (sdk === null || !(err instanceof sdk.errors.StripeError)) return null;
  const retryable = err instanceof sdk.errors.StripeConnectionError || err instanceof sdk.errors.StripeAPIError || err instanceof sdk.errors.StripeRateLimitError;
  return { status: 502, code: "billing.processor_error", title: "Payment processor error", detail: "The payment processor refused or failed the request; the request id identifies it in our logs.", retryable };
}
