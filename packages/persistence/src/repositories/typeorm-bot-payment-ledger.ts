import type { Payment, PaymentLedger, PlanGrant } from "@svc/bot-kernel";
import type { DataSource, EntityManager } from "typeorm";
import type { BotPaymentRow } from "../entities/bot.js";
import { selectSettings, upsertSettings } from "./bot-settings-rows.js";
import { iso, isoOrNull } from "./sql.js";
import { markEntitlementRefunded, recordEntitlement } from "./typeorm-billing-store.js";

/**
 * In-app purchases in `bot_payments`, keyed by the platform's charge id. With a plan grant the
 * payment row and the chat's new settings are written in one transaction: a redelivered update
 * inserts nothing and grants nothing (a concurrent duplicate waits on the first one's row and
 * then finds it), and a failed grant leaves no payment behind, so the redelivery can succeed.
 */
export class TypeOrmBotPaymentLedger implements PaymentLedger {
  constructor(private readonly ds: DataSource) {}

  async record(payment: Payment, grant?: PlanGrant): Promise<boolean> {
    if (!grant) {
      return this.ds.transaction(async (m) => {
        if (!(await insert(m, payment))) return false;
        await entitle(m, payment, null);
        return true;
      });
    }
    // Inside the transaction only `m` is used: on PGlite `this.ds` would wait for the session `m` holds.
    return this.ds.transaction(async (m) => {
      if (!(await insert(m, payment))) return false;
      // Serialises grants per chat even before the chat has a settings row to lock.
      await m.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`bot_chat_settings:${payment.platform}:${payment.chatId}`]);
      const next = grant(await selectSettings(m, payment.platform, payment.chatId, true));
      if (next.chatId !== payment.chatId || next.platform !== payment.platform) {
        throw new Error(`a plan grant must change the paying chat (${payment.platform}:${payment.chatId}), not ${next.platform}:${next.chatId}`);
      }
      await upsertSettings(m, next);
      await entitle(m, payment, next.plan.until);
      return true;
    });
  }

  async get(chargeId: string): Promise<Payment | null> {
    const [row] = (await this.ds.manager.query(`SELECT * FROM bot_payments WHERE charge_id = $1`, [chargeId])) as BotPaymentRow[];
    return row ? toPayment(row) : null;
  }

  async latestFor(platform: string, userId: string): Promise<Payment | null> {
    const [row] = (await this.ds.manager.query(
      `SELECT * FROM bot_payments WHERE platform = $1 AND user_id = $2 AND refunded_at IS NULL ORDER BY paid_at DESC, charge_id DESC LIMIT 1`,
      [platform, userId],
    )) as BotPaymentRow[];
    return row ? toPayment(row) : null;
  }

  async markRefunded(chargeId: string, at: Date): Promise<void> {
    await this.ds.transaction(async (m) => {
      await m.query(`UPDATE bot_payments SET refunded_at = $2 WHERE charge_id = $1`, [chargeId, at]);
      await markEntitlementRefunded(m, "telegram_stars", chargeId, at);
    });
  }
}

async function insert(m: EntityManager, p: Payment): Promise<boolean> {
  const rows = (await m.query(
    `INSERT INTO bot_payments (charge_id, platform, user_id, chat_id, plan, amount, currency, paid_at, refunded_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::timestamptz, $9::timestamptz)
     ON CONFLICT (charge_id) DO NOTHING
     RETURNING charge_id`,
    [p.chargeId, p.platform, p.userId, p.chatId, p.plan, p.amount, p.currency, p.paidAt, p.refundedAt],
  )) as unknown[];
  return rows.length > 0;
}

/**
 * Telegram Stars purchases also land in the ledger of entitlements (`entitlements`), beside
 * Stripe's, in the same transaction as the payment: one place lists every purchase.
 */
async function entitle(m: EntityManager, p: Payment, until: string | null): Promise<void> {
  if (p.platform !== "telegram" || p.currency !== "XTR") return;
  await recordEntitlement(m, {
    source: "telegram_stars", purchaseRef: p.chargeId, accountId: null, chat: `telegram:${p.chatId}`, plan: p.plan,
    amount: p.amount, currency: p.currency, periodStart: new Date(p.paidAt), periodEnd: until === null ? null : new Date(until),
  }, new Date(p.paidAt));
}

function toPayment(r: BotPaymentRow): Payment {
  return {
    chargeId: r.charge_id,
    platform: r.platform,
    userId: r.user_id,
    chatId: r.chat_id,
    plan: r.plan,
    amount: r.amount,
    currency: r.currency,
    paidAt: iso(r.paid_at),
    refundedAt: isoOrNull(r.refunded_at),
  };
}
