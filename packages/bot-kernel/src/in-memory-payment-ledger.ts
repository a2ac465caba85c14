import type { Payment, PaymentLedger } from "./ports.js";

export class InMemoryPaymentLedger implements PaymentLedger {
  private readonly rows = new Map<string, Payment>();

  async record(payment: Payment): Promise<boolean> {
    if (this.rows.has(payment.chargeId)) return false;
    this.rows.set(payment.chargeId, { ...payment });
    return true;
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

  async markRefunded(chargeId: string, at: Date): Promise<void> {
    const p = this.rows.get(chargeId);
    if (p) this.rows.set(chargeId, { ...p, refundedAt: at.toISOString() });
  }

  dump(): readonly Payment[] {
    return [...this.rows.values()];
  }
}
