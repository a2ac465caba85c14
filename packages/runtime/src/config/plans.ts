import { z } from "zod";

/** A plan's limits; `null` means unlimited. */
export interface PlanLimits {
  readonly per_minute: number | null;
  readonly per_month: number | null;
}

/** The configured plans by name (SVC_PLANS over DEFAULT_PLANS). */
export type PlanCatalog = Readonly<Record<string, PlanLimits>>;

/** The plans a deployment has without SVC_PLANS. `operator` is the operator's own account's. */
export const DEFAULT_PLANS: PlanCatalog = {
  free: { per_minute: 30, per_month: 1_000 },
  starter: { per_minute: 300, per_month: 50_000 },
  pro: { per_minute: 1_500, per_month: 500_000 },
  operator: { per_minute: null, per_month: null },
};

/** The plan the first-start admin account gets. */
export const OPERATOR_PLAN = "operator";

const PLAN_NAME = /^[a-z][a-z0-9_-]{0,31}$/;
const limit = z.number().int().min(1).max(1_000_000_000).nullable();
const PlanOverrideSchema = z.object({ per_minute: limit.optional(), per_month: limit.optional() }).strict();

/**
 * `SVC_PLANS`: a JSON object of plans that override or add to the defaults, e.g.
 * `{"free": {"per_minute": 60}, "team": {"per_minute": 600, "per_month": 100000}}`. A new plan
 * gives both limits; an existing one may give either. `null` is unlimited.
 */
export const PlansSchema = z
  .string()
  .transform((text, ctx): unknown => {
    try {
      return JSON.parse(text) as unknown;
    } catch (e) {
      ctx.addIssue({ code: "custom", message: `must be JSON (${e instanceof Error ? e.message : String(e)})` });
      return z.NEVER;
    }
  })
  .pipe(z.record(z.string(), PlanOverrideSchema))
  .transform((overrides, ctx): PlanCatalog => {
    const out: Record<string, PlanLimits> = { ...DEFAULT_PLANS };
    for (const [name, o] of Object.entries(overrides)) {
      if (!PLAN_NAME.test(name)) {
        ctx.addIssue({ code: "custom", path: [name], message: "plan names are 1–32 lower-case letters, digits, - or _, starting with a letter" });
        continue;
      }
      const base = DEFAULT_PLANS[name];
      if (!base && (o.per_minute === undefined || o.per_month === undefined)) {
        ctx.addIssue({ code: "custom", path: [name], message: "a new plan needs both per_minute and per_month (null for unlimited)" });
        continue;
      }
      out[name] = { per_minute: o.per_minute === undefined ? (base as PlanLimits).per_minute : o.per_minute, per_month: o.per_month === undefined ? (base as PlanLimits).per_month : o.per_month };
    }
    return out;
  });

/** Whether `name` is a configured plan: the one check for every place that takes a plan name. */
export function isKnownPlan(plans: PlanCatalog, name: string): boolean {
  return Object.hasOwn(plans, name);
}

/** The limits of a configured plan, or null when the name is not one. */
export function planLimits(plans: PlanCatalog, name: string): PlanLimits | null {
  return isKnownPlan(plans, name) ? (plans[name] as PlanLimits) : null;
}

/** The configured plan names, for messages ("one of free, starter, …"). */
export const planNames = (plans: PlanCatalog): string[] => Object.keys(plans);

/** True when `plan` allows no more than `ceiling` in every limit (unlimited is the most): a customer may not mint a key above its own plan. */
export function planWithin(plans: PlanCatalog, plan: string, ceiling: string): boolean {
  const a = planLimits(plans, plan);
  const b = planLimits(plans, ceiling);
  if (!a || !b) return false;
  const le = (x: number | null, y: number | null): boolean => y === null || (x !== null && x <= y);
  return le(a.per_minute, b.per_minute) && le(a.per_month, b.per_month);
}
