import type { Plan } from "@svc/core";
import { PLANS } from "./services.js";

/**
 * The plan called `name` when this server knows it, else null. Every plan named in a request
 * (POST /v1/keys) is checked here, so where plans come from can change in one place.
 */
export function knownPlan(name: string): Plan | null {
  return Object.hasOwn(PLANS, name) ? (name as Plan) : null;
}

/** True when `plan` allows no more than `ceiling` in every limit: a customer may not mint a key above its own plan. */
export function planWithin(plan: Plan, ceiling: Plan): boolean {
  const a = PLANS[plan];
  const b = PLANS[ceiling];
  return a.perMinute <= b.perMinute && a.perMonth <= b.perMonth;
}
