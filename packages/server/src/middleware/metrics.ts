import { exposition, httpRequestDuration } from "@svc/metrics";
import type { Context, MiddlewareHandler } from "hono";
import { authenticate, callerOf, requireOperator } from "./auth.js";
import type { ApiServices } from "../services.js";

interface Observer {
  observe(seconds: number): void;
}

/**
 * One histogram observation per request, labelled with the route pattern that answered
 * (`/v1/checks/:id`; `*` for a 404/405 answered before any route, `/v1/*` for a request refused
 * before its route ran): never the raw path, so no id or entity value reaches a label. The
 * labelled children are looked up in nested maps keyed by strings the request already has, so
 * the hot path allocates nothing of its own.
 */
export function httpMetrics(): MiddlewareHandler {
  const children = new Map<string, Map<string, Map<number, Observer>>>();
  const observer = (route: string, method: string, status: number): Observer => {
    let byMethod = children.get(route);
    if (!byMethod) children.set(route, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map()));
    let o = byStatus.get(status);
    if (!o) byStatus.set(status, (o = httpRequestDuration.labels(method, route, String(status))));
    return o;
  };
  return async (c, next) => {
    const started = performance.now();
    await next();
    // After next(): routePath is the pattern of the deepest handler that ran (the one that answered).
    observer(c.req.routePath, c.req.method, c.res.status).observe((performance.now() - started) / 1000);
  };
}

/**
 * `GET /metrics` (Prometheus text format) for the operator's API keys only: the figures are the
 * whole service's, not an account's (docs/decisions/0065-metrics-access.md).
 */
export function metricsRoute(s: Pick<ApiServices, "keys" | "accounts">): [MiddlewareHandler, (c: Context) => Promise<Response>] {
  return [
    authenticate(s),
    async (c) => {
      requireOperator(callerOf(c));
      const m = await exposition();
      return c.body(m.body, 200, { "content-type": m.contentType, "cache-control": "no-store" });
    },
  ];
}
