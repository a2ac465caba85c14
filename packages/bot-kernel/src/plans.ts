import type { Payment, PlanTier } from "./ports.js";
import type { PlanBinding } from "./settings.js";

/**
 * Paid plans as entitlements per purchase. Each purchase that was not refunded buys `days` of
 * its tier, starting when it was paid or, when the chat already had that tier paid for, when
 * that time runs out (paying early extends rather than overlaps). The chat's purchased plan is
 * the highest tier paid for at `now`. A refund removes one purchase and nothing else, so one
 * buyer's refund never cancels another's time. Pure.
 */
export function planFromPurchases(payments: readonly Payment[], now: Date, days: number): PlanBinding {
  const end: Partial<Record<Exclude<PlanTier, "free">, { until: number; by: string }>> = {};
  const sorted = [...payments].filter((p) => p.refundedAt === null).sort((a, b) => a.paidAt.localeCompare(b.paidAt));
  for (const p of sorted) {
    const start = Math.max(Date.parse(p.paidAt), end[p.plan]?.until ?? 0);
    end[p.plan] = { until: start + days * 86_400_000, by: p.userId };
  }
  for (const tier of ["pro", "starter"] as const) {
    const e = end[tier];
    if (e && e.until > now.getTime()) return { tier, source: "stars", boundBy: e.by, until: new Date(e.until).toISOString() };
  }
  return { tier: "free", source: "none", until: null };
}

/** An API key's plan is the account's own; in-app purchases never replace or downgrade it. */
export const boundByApiKey = (plan: PlanBinding): boolean => plan.source === "api_key";
