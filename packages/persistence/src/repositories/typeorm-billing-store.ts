import type { DataSource, EntityManager } from "typeorm";
import { iso, isoOrNull, newId, rowsOf } from "./sql.js";

/** A plan the account holds through a subscription (or `free` when it has none). */
export interface SubscriptionState {
  readonly subscriptionId: string;
  /** Stripe's status: active, trialing, past_due, canceled, unpaid, incomplete, … */
  readonly status: string;
  /** The plan the subscription buys; `free` when it no longer buys anything. */
  readonly plan: string;
  readonly cancelAtPeriodEnd: boolean;
  readonly currentPeriodEnd: Date | null;
}

export interface BillingCustomer {
  readonly accountId: string;
  readonly customerId: string;
  readonly subscriptionId: string | null;
  readonly status: string | null;
  readonly plan: string | null;
  readonly cancelAtPeriodEnd: boolean;
  readonly currentPeriodEnd: string | null;
}

export type EntitlementSource = "stripe" | "telegram_stars";

export interface NewEntitlement {
  readonly source: EntitlementSource;
  /** The processor's id of the purchase: a Stripe invoice, a Telegram charge. */
  readonly purchaseRef: string;
  readonly accountId: string | null;
  /** `telegram:<chat id>` for a purchase made for a chat. */
  readonly chat: string | null;
  readonly plan: string;
  /** In the currency's smallest unit (cents; Stars). */
  readonly amount: number;
  readonly currency: string;
  readonly periodStart: Date;
  readonly periodEnd: Date | null;
}

export interface Entitlement {
  readonly id: string;
  readonly source: EntitlementSource;
  readonly purchase_ref: string;
  readonly plan: string;
  readonly amount: number;
  readonly currency: string;
  readonly period_start: string;
  readonly period_end: string | null;
  readonly refunded_at: string | null;
  readonly created_at: string;
}

/** Who an account's plan change reaches besides the account: its keys and the bot chats bound with them. */
export interface PlanPropagation {
  /** Plans at or below the new plan: keys limited to one of these keep their limit, others follow the account. */
  readonly keyPlansWithin: readonly string[];
  /** The bot tier the new plan unlocks (free, starter or pro). */
  readonly botTier: string;
}

type Queryable = Pick<EntityManager, "query">;

/**
 * Stripe customers and subscriptions, processed webhook events and the ledger of entitlements.
 * Every event is applied in one transaction with the row that marks it processed, so a
 * redelivered event changes nothing and a failed one leaves no mark (Stripe sends it again).
 */
export class TypeOrmBillingStore {
  constructor(private readonly ds: DataSource) {}

  async customer(accountId: string): Promise<BillingCustomer | null> {
    const [r] = (await rowsOf<Row>(this.ds,`SELECT * FROM billing_customers WHERE account_id = $1`, [accountId]));
    return r ? toCustomer(r) : null;
  }

  async accountOfCustomer(customerId: string, m: Queryable = this.ds): Promise<string | null> {
    const [r] = (await rowsOf<{ account_id: string }>(m,`SELECT account_id FROM billing_customers WHERE customer_id = $1`, [customerId]));
    return r?.account_id ?? null;
  }

  /** Links a Stripe customer to an account; false when the account already has another one. */
  async linkCustomer(accountId: string, customerId: string, now: Date): Promise<boolean> {
    await this.ds.query(
      `INSERT INTO billing_customers (account_id, customer_id, updated_at) VALUES ($1, $2, $3::timestamptz) ON CONFLICT (account_id) DO NOTHING`,
      [accountId, customerId, now],
    );
    return (await this.customer(accountId))?.customerId === customerId;
  }

  /**
   * Runs `apply` once per event id: true when it ran, false for an event already processed
   * (a concurrent duplicate waits for the first one's row, then finds it).
   */
  async processOnce(eventId: string, type: string, now: Date, apply: (m: EntityManager) => Promise<void>): Promise<boolean> {
    return this.ds.transaction(async (m) => {
      const inserted = (await rowsOf<unknown>(m,
        `INSERT INTO billing_events (id, type, received_at) VALUES ($1, $2, $3::timestamptz) ON CONFLICT (id) DO NOTHING RETURNING id`,
        [eventId, type, now]
      ));
      if (inserted.length === 0) return false;
      await apply(m);
      return true;
    });
  }

  /**
   * A subscription's state, unless a newer event already set it (Stripe does not promise order).
   * The account's plan follows (the operator's own account never changes plan this way), its
   * keys are kept within it, and chats bound with its keys get the matching bot tier.
   */
  async applySubscription(m: Queryable, accountId: string, s: SubscriptionState, eventAt: Date, propagation: PlanPropagation, now: Date): Promise<boolean> {
    const updated = (await rowsOf<unknown>(m,
      `UPDATE billing_customers SET subscription_id = $2, status = $3, plan = $4, cancel_at_period_end = $5, current_period_end = $6::timestamptz, event_at = $7::timestamptz, updated_at = $8::timestamptz
        WHERE account_id = $1 AND (event_at IS NULL OR event_at <= $7::timestamptz) RETURNING account_id`,
      [accountId, s.subscriptionId, s.status, s.plan, s.cancelAtPeriodEnd, s.currentPeriodEnd, eventAt, now]
    ));
    if (updated.length === 0) return false;
    await setAccountPlan(m, accountId, s.plan, propagation);
    return true;
  }

  /** A purchase into the ledger; false when it is already there. */
  async recordEntitlement(m: Queryable, e: NewEntitlement, now: Date): Promise<boolean> {
    return recordEntitlement(m, e, now);
  }

  async ledger(accountId: string): Promise<Entitlement[]> {
    const rows = (await rowsOf<EntRow>(this.ds,`SELECT * FROM entitlements WHERE account_id = $1 ORDER BY created_at DESC, id DESC LIMIT 100`, [accountId]));
    return rows.map(toEntitlement);
  }

  async entitlement(accountId: string, id: string): Promise<Entitlement | null> {
    const [r] = (await rowsOf<EntRow>(this.ds,`SELECT * FROM entitlements WHERE account_id = $1 AND id = $2`, [accountId, id]));
    return r ? toEntitlement(r) : null;
  }

  /** True when this call marked it (false: already refunded). */
  async markRefunded(source: EntitlementSource, purchaseRef: string, at: Date, m: Queryable = this.ds): Promise<boolean> {
    return markEntitlementRefunded(m, source, purchaseRef, at);
  }

  /** The plan the operator sets after a refund, with the same propagation as a subscription change. */
  async setPlan(accountId: string, plan: string, propagation: PlanPropagation): Promise<void> {
    await this.ds.transaction(async (m) => {
      await m.query(`UPDATE billing_customers SET plan = $2, status = 'canceled', cancel_at_period_end = false WHERE account_id = $1`, [accountId, plan]);
      await setAccountPlan(m, accountId, plan, propagation);
    });
  }
}

async function setAccountPlan(m: Queryable, accountId: string, plan: string, p: PlanPropagation): Promise<void> {
  await m.query(`UPDATE accounts SET plan = $2 WHERE id = $1 AND role <> 'operator'`, [accountId, plan]);
  await m.query(`UPDATE api_keys SET plan = NULL WHERE account_id = $1 AND plan IS NOT NULL AND NOT (plan = ANY($2::text[]))`, [accountId, [...p.keyPlansWithin]]);
  // A chat bound with a key that carries its own plan keeps that key's tier.
  await m.query(
    `UPDATE bot_chat_settings s SET plan_tier = $2, updated_at = now()
       FROM api_keys k
      WHERE k.account_id = $1 AND k.plan IS NULL AND k.revoked_at IS NULL AND s.plan_source = 'api_key' AND s.plan_key_hash = k.key_hash`,
    [accountId, p.botTier],
  );
}

export async function recordEntitlement(m: Queryable, e: NewEntitlement, now: Date): Promise<boolean> {
  const rows = (await rowsOf<unknown>(m,
    `INSERT INTO entitlements (id, source, purchase_ref, account_id, chat, plan, amount, currency, period_start, period_end, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::timestamptz, $10::timestamptz, $11::timestamptz)
     ON CONFLICT (source, purchase_ref) DO NOTHING RETURNING id`,
    [newId("ent"), e.source, e.purchaseRef, e.accountId, e.chat, e.plan, e.amount, e.currency, e.periodStart, e.periodEnd, now]
  ));
  return rows.length > 0;
}

export async function markEntitlementRefunded(m: Queryable, source: EntitlementSource, purchaseRef: string, at: Date): Promise<boolean> {
  const rows = (await rowsOf<unknown>(m,
    `UPDATE entitlements SET refunded_at = $3::timestamptz WHERE source = $1 AND purchase_ref = $2 AND refunded_at IS NULL RETURNING id`,
    [source, purchaseRef, at]
  ));
  return rows.length > 0;
}

interface Row {
  account_id: string; customer_id: string; subscription_id: string | null; status: string | null; plan: string | null;
  cancel_at_period_end: boolean; current_period_end: Date | null;
}
interface EntRow {
  id: string; source: EntitlementSource; purchase_ref: string; plan: string; amount: number; currency: string;
  period_start: Date; period_end: Date | null; refunded_at: Date | null; created_at: Date;
}

const toCustomer = (r: Row): BillingCustomer => ({
  accountId: r.account_id, customerId: r.customer_id, subscriptionId: r.subscription_id, status: r.status, plan: r.plan,
  cancelAtPeriodEnd: r.cancel_at_period_end, currentPeriodEnd: isoOrNull(r.current_period_end),
});

const toEntitlement = (r: EntRow): Entitlement => ({
  id: r.id, source: r.source, purchase_ref: r.purchase_ref, plan: r.plan, amount: r.amount, currency: r.currency,
  period_start: iso(r.period_start), period_end: isoOrNull(r.period_end), refunded_at: isoOrNull(r.refunded_at), created_at: iso(r.created_at),
});
