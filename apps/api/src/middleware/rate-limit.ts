import type { Context } from "hono";
import { problem } from "../problem.js";
import { PLANS, type ApiServices } from "../services.js";
import type { Caller } from "./auth.js";

const minuteStart = (now: Date): Date => new Date(Math.floor(now.getTime() / 60_000) * 60_000);
const monthStart = (now: Date): Date => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
const nextMonth = (now: Date): Date => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));

/**
 * Charges `cost` checks to the caller's key: a per-minute rate limit and a monthly quota, both
 * counted in the database so that every replica agrees. A batch of N costs N.
 */
export async function charge(c: Context, s: Pick<ApiServices, "usage" | "clock">, caller: Caller, cost: number): Promise<void> {
  const now = s.clock.now();
  const plan = PLANS[caller.plan];
  const start = minuteStart(now);
  const resetSecs = Math.max(1, Math.ceil((start.getTime() + 60_000 - now.getTime()) / 1000));
  const minute = await s.usage.hit(`key:${caller.keyId}`, "minute", start, cost, plan.perMinute);
  const headers = { "RateLimit-Limit": String(plan.perMinute), "RateLimit-Remaining": String(minute.remaining), "RateLimit-Reset": String(resetSecs) };
  for (const [k, v] of Object.entries(headers)) c.header(k, v);
  if (!minute.allowed) {
    throw problem({
      status: 429,
      code: "rate_limited",
      title: "Too many requests",
      detail: cost > plan.perMinute
        ? `This request costs ${cost} checks but the ${caller.plan} plan allows ${plan.perMinute} per minute.`
        : `The ${caller.plan} plan allows ${plan.perMinute} checks per minute; try again in ${resetSecs} s.`,
      headers: { ...headers, "Retry-After": String(resetSecs) },
    });
  }
  const month = await s.usage.hit(`key:${caller.keyId}`, "month", monthStart(now), cost, plan.perMonth);
  if (!month.allowed) {
    const secs = Math.ceil((nextMonth(now).getTime() - now.getTime()) / 1000);
    throw problem({
      status: 429,
      code: "quota_exceeded",
      title: "Monthly quota used up",
      detail: `The ${caller.plan} plan includes ${plan.perMonth} checks a month; this month's are used up. Upgrade the plan or wait for the next month.`,
      headers: { ...headers, "Retry-After": String(secs) },
    });
  }
}
