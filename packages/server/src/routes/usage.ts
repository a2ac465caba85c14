import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { ProblemSchema, UsageResponseSchema, type UsageBody } from "@svc/contracts";
import { callerOf } from "../middleware/auth.js";
import { callerLimits, monthStart, nextMonth } from "../middleware/rate-limit.js";
import type { ApiServices } from "../services.js";

const problems = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((s) => [s, { description: "Problem details (RFC 9457)", content: { "application/problem+json": { schema: ProblemSchema } } }]));

export const usageRoute = createRoute({
  method: "get", path: "/v1/usage", tags: ["account"], summary: "Your key's plan, limits and usage", security: [{ ApiKey: [] }],
  responses: { 200: { description: "Limits and usage of the calling key", content: { "application/json": { schema: UsageResponseSchema } } }, ...problems(401, 403, 503) },
});

/** `GET /v1/usage`: what the calling key may do and has done (limits and counters are per key). Reading it costs nothing. */
export function registerUsageRoutes(app: OpenAPIHono, s: ApiServices): void {
  app.openapi(usageRoute, async (c) => {
    const caller = callerOf(c);
    const limits = callerLimits(s, caller);
    const now = s.clock.now();
    const key = `key:${caller.keyId}`;
    const [minute, month] = await Promise.all([
      limits.per_minute === null ? null : s.rates.peek(key, now, limits.per_minute),
      s.usage.hit(key, "month", monthStart(now), 0, limits.per_month ?? 2_147_483_647),
    ]);
    const body: UsageBody = {
      plan: caller.plan,
      limits: { per_minute: limits.per_minute, per_month: limits.per_month },
      minute: minute ? { used: minute.used, remaining: minute.remaining, reset: Math.ceil(minute.resetMs / 1000) } : null,
      month: {
        used: month.count,
        remaining: limits.per_month === null ? null : Math.max(0, limits.per_month - month.count),
        period_start: monthStart(now).toISOString(),
        period_end: nextMonth(now).toISOString(),
      },
    };
    return c.json(body, 200);
  });
}
