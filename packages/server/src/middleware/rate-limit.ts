import type { Context, MiddlewareHandler } from "hono";
import { planLimits, type PlanLimits } from "@svc/runtime";
import { problem } from "../problem.js";
import type { ApiServices } from "../services.js";
import type { Caller } from "./auth.js";

type RateServices = Pick<ApiServices, "usage" | "rates" | "plans" | "clock">;

/** A count stored as int4 stands for "unlimited" in the monthly counter (it still counts). */
const UNLIMITED = 2_147_483_647;

export const monthStart = (now: Date): Date => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
export const nextMonth = (now: Date): Date => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
const seconds = (ms: number): number => Math.ceil(ms / 1000);

/** The RateLimit-* figures of a response, kept on the context until the response leaves. */
interface RateHeaders {
  readonly limit: number;
  readonly remaining: number;
  readonly reset: number;
}
const HEADERS_KEY = "rateLimitHeaders" as never;

/** The caller's limits; a plan name the configuration no longer has is refused, not guessed. */
export function callerLimits(s: Pick<ApiServices, "plans">, caller: Caller): PlanLimits {
  const limits = planLimits(s.plans, caller.plan);
  if (!limits) {
    throw problem({ status: 403, code: "plan.unknown", title: "Unknown plan", detail: `This key's plan "${caller.plan}" is not configured on this server; ask the operator to configure it or move the key to another plan.`, retryable: false });
  }
  return limits;
}

/** What is charged for a request, and how to give back what failed. */
export interface Charge {
  /** Gives back `n` of the checks charged (work that produced no verdict). */
  refund(n: number): Promise<void>;
}

/**
 * Charges `cost` checks to the caller's key before the work: the per-minute sliding window
 * first, then the monthly quota. A request refused by either leaves both untouched (a quota
 * refusal gives the minute back). A request that can never fit the plan is refused at once,
 * not retried. Charging up front is what keeps the limits exact under concurrency; work that
 * fails is refunded (see `charged`).
 */
export async function charge(c: Context, s: RateServices, caller: Caller, cost: number): Promise<Charge> {
  const now = s.clock.now();
  const limits = callerLimits(s, caller);
  const key = `key:${caller.keyId}`;
  const tooBig = limits.per_minute !== null && cost > limits.per_minute ? `${limits.per_minute} checks per minute`
    : limits.per_month !== null && cost > limits.per_month ? `${limits.per_month} checks per month` : null;
  if (tooBig) {
    await currentHeaders(c, s, caller, limits, now);
    throw problem({
      status: 422,
      code: "rate_limit.exceeds_plan",
      title: "Larger than the plan allows",
      detail: `This request costs ${cost} checks but the ${caller.plan} plan allows ${tooBig}; it can never succeed as it is. Send at most ${Math.min(limits.per_minute ?? Infinity, limits.per_month ?? Infinity)} entities per request.`,
      retryable: false,
      errors: [{ pointer: "/entities", code: "rate_limit.exceeds_plan", message: `at most ${Math.min(limits.per_minute ?? Infinity, limits.per_month ?? Infinity)} per request on the ${caller.plan} plan` }],
    });
  }
  let minute = null;
  if (limits.per_minute !== null) {
    minute = await s.rates.take(key, now, cost, limits.per_minute);
    setHeaders(c, { limit: limits.per_minute, remaining: minute.remaining, reset: seconds(minute.resetMs) });
    if (!minute.allowed) {
      // Waiting out the minute helps only if the month can still hold the request (a look, on refusals only).
      if (limits.per_month !== null) {
        const left = await s.usage.hit(key, "month", monthStart(now), 0, limits.per_month);
        if (left.remaining < cost) throw quotaExceeded(caller.plan, limits.per_month, left.remaining, cost, now);
      }
      const wait = Math.max(1, seconds(minute.retryAfterMs));
      throw problem({
        status: 429,
        code: "rate_limited",
        title: "Too many requests",
        detail: `The ${caller.plan} plan allows ${limits.per_minute} checks in any 60 seconds; this request (${cost}) fits again in ${wait} s.`,
        headers: { "Retry-After": String(wait) },
      });
    }
  }
  const month = monthStart(now);
  const hit = await s.usage.hit(key, "month", month, cost, limits.per_month ?? UNLIMITED);
  if (limits.per_minute === null && limits.per_month !== null) setHeaders(c, monthHeaders(limits.per_month, hit.remaining, now));
  if (!hit.allowed) {
    if (minute) {
      await s.rates.refund(key, now, cost);
      setHeaders(c, { limit: limits.per_minute as number, remaining: Math.min(limits.per_minute as number, minute.remaining + cost), reset: seconds(minute.resetMs) });
    }
    throw quotaExceeded(caller.plan, limits.per_month as number, hit.remaining, cost, now);
  }
  let refunded = 0;
  return {
    async refund(n: number) {
      const give = Math.min(n, cost - refunded);
      if (give <= 0) return;
      refunded += give;
      await s.usage.refund(key, "month", month, give);
      if (limits.per_minute !== null) {
        await s.rates.refund(key, now, give);
        const st = await s.rates.peek(key, now, limits.per_minute);
        setHeaders(c, { limit: limits.per_minute, remaining: st.remaining, reset: seconds(st.resetMs) });
      } else if (limits.per_month !== null) {
        setHeaders(c, monthHeaders(limits.per_month, hit.remaining + refunded, now));
      }
    },
  };
}

const quotaExceeded = (plan: string, perMonth: number, remaining: number, cost: number, now: Date) =>
  problem({
    status: 429,
    code: "quota_exceeded",
    title: "Monthly quota used up",
    detail: `The ${plan} plan includes ${perMonth} checks a month and ${remaining} are left; this request costs ${cost}. Upgrade the plan or wait for the next month.`,
    headers: { "Retry-After": String(seconds(nextMonth(now).getTime() - now.getTime())) },
  });

/**
 * Charges `cost`, runs the work, and refunds what produced no verdict: everything when the
 * work throws (an invalid entity, a failure of ours), `uncharged(result)` when it returns.
 */
export async function charged<T>(c: Context, s: RateServices, caller: Caller, cost: number, work: () => Promise<T>, uncharged: (result: T) => number = () => 0): Promise<T> {
  const bill = await charge(c, s, caller, cost);
  let result: T;
  try {
    result = await work();
  } catch (e) {
    await bill.refund(cost);
    throw e;
  }
  await bill.refund(uncharged(result));
  return result;
}

const monthHeaders = (perMonth: number, remaining: number, now: Date): RateHeaders => ({ limit: perMonth, remaining, reset: seconds(nextMonth(now).getTime() - now.getTime()) });

function setHeaders(c: Context, h: RateHeaders): void {
  c.set(HEADERS_KEY, h as never);
}

/** The figures for a response that charged nothing: the per-minute window as it stands (or the month when the minute is unlimited). */
async function currentHeaders(c: Context, s: RateServices, caller: Caller, limits: PlanLimits, now: Date): Promise<void> {
  const key = `key:${caller.keyId}`;
  if (limits.per_minute !== null) {
    const st = await s.rates.peek(key, now, limits.per_minute);
    setHeaders(c, { limit: limits.per_minute, remaining: st.remaining, reset: seconds(st.resetMs) });
  } else if (limits.per_month !== null) {
    const hit = await s.usage.hit(key, "month", monthStart(now), 0, limits.per_month);
    setHeaders(c, monthHeaders(limits.per_month, hit.remaining, now));
  }
}

/**
 * RateLimit-Limit/-Remaining/-Reset on every response to an authenticated /v1 request, errors
 * included: the figures a charge left, or else the window as it stands. A plan with neither
 * limit has nothing to report and sends none.
 */
export const rateLimitHeaders = (s: RateServices): MiddlewareHandler => async (c, next) => {
  await next();
  const caller = c.get("caller" as never) as Caller | undefined;
  if (!caller || c.res.headers.has("RateLimit-Limit")) return;
  let h = c.get(HEADERS_KEY) as RateHeaders | undefined;
  if (!h) {
    const limits = planLimits(s.plans, caller.plan);
    if (!limits) return;
    try {
      await currentHeaders(c, s, caller, limits, s.clock.now());
    } catch {
      return; // The answer stands without the figures rather than fail for them.
    }
    h = c.get(HEADERS_KEY) as RateHeaders | undefined;
    if (!h) return;
  }
  const set = (res: Response): void => {
    res.headers.set("RateLimit-Limit", String(h.limit));
    res.headers.set("RateLimit-Remaining", String(h.remaining));
    res.headers.set("RateLimit-Reset", String(h.reset));
  };
  try {
    set(c.res);
  } catch {
    // Headers of a response made elsewhere may be immutable: copy it.
    c.res = new Response(c.res.body, c.res);
    set(c.res);
  }
};
