import type { Payment, PaymentLedger, PlanGrant } from "./ports.js";
import type { SettingsStore } from "./settings.js";

/**
 * Payments in a Map. With `settings` it applies plan grants too: the charge is claimed first,
 * the grant applied, and the claim dropped again if the grant fails, so a charge grants once or
 * not at all (a duplicate arriving meanwhile waits for the outcome, as a database would make it).
 */
export class InMemoryPaymentLedger implements PaymentLedger {
  private readonly rows = new Map<string, Payment>();
  private readonly inFlight = new Map<string, Promise<unknown>>();
  /** Grants one after another, so two purchases for one chat both count. */
  private grants: Promise<unknown> = Promise.resolve();

  constructor(private readonly settings?: SettingsStore) {}

  async record(payment: Payment, grant?: PlanGrant): Promise<boolean> {
    if (grant && !this.settings) throw new Error("InMemoryPaymentLedger needs the settings store to apply a plan grant");
    for (let p = this.inFlight.get(payment.chargeId); p; p = this.inFlight.get(payment.chargeId)) await p.catch(() => undefined);
    if (this.rows.has(payment.chargeId)) return false;
    this.rows.set(payment.chargeId, { ...payment });
    if (!grant) return true;
    const applied = this.applyGrant(payment, grant);
    this.inFlight.set(payment.chargeId, applied);
    try {
      await applied;
      return true;
    } catch (e) {
      this.rows.delete(payment.chargeId);
      throw e;
    } finally {
      this.inFlight.delete(payment.chargeId);
    }
  }

  private applyGrant(payment: Payment, grant: PlanGrant): Promise<void> {
    const settings = this.settings as SettingsStore;
    const run = this.grants.then(async () => {
      const next = grant(await settings.get(payment.chatId));
      if (next.chatId !== payment.chatId || next.platform !== payment.platform) throw new Error("a plan grant must keep the payment's chat and platform");
      await settings.save(next);
    });
    this.grants = run.catch(() => undefined);
    return run;
  }

  async get(chargeId: string): Promise<Payment | null> {
    return this.rows.get(chargeId) ?? null;
  }

  async latestFor(platform: string, userId: string): Promise<Payment | null> {
    let best: Payment | null = null;
    for (const p of this.rows.values()) {
      if (p.platform !== platform || p.userId !== userId || p.refundedAt !== null) continue;
      if (!best || p.paidAt > best.paidAt) best = p;
    }
    return best;
  }

  async forChat(platform: string, chatId: string): Promise<readonly Payment[]> {
    return [...this.rows.values()].filter((p) => p.platform === platform && p.chatId === chatId).sort((a, b) => a.paidAt.localeCompare(b.paidAt) || a.chargeId.localeCompare(b.chargeId));
  }

  async markRefunded(chargeId: string, at: Date): Promise<void> {
    const p = this.rows.get(chargeId);
    if (p) this.rows.set(chargeId, { ...p, refundedAt: at.toISOString() });
  }

  dump(): readonly Payment[] {
    return [...this.rows.values()];
  }
}
