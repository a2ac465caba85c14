import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { DeletionRequestSchema, ProblemSchema } from "@svc/contracts";
import { actingAccount } from "../billing/account.js";
import { requestLog } from "../middleware/request-id.js";
import { problem } from "../problem.js";
import type { ApiServices } from "../services.js";

const problems = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((st) => [st, { description: "Problem details (RFC 9457)", content: { "application/problem+json": { schema: ProblemSchema } } }]));
const DAY_MS = 86_400_000;

export const deletionRoute = createRoute({
  method: "post", path: "/v1/account/deletion", tags: ["account"], security: [{ ApiKey: [] }],
  summary: "Delete your account: every key stops working now; your personal data is purged within 30 days (at once by default)",
  description: "What is purged and what is kept anonymised is listed at GET /privacy. Asking again answers the same request.",
  request: { body: { content: { "application/json": { schema: z.object({ confirm: z.literal(true).openapi({ description: "Must be true: deletion cannot be undone." }) }).strict() } }, required: true } },
  responses: { 202: { description: "Scheduled", content: { "application/json": { schema: DeletionRequestSchema } } }, ...problems(400, 401, 403, 413, 415, 422, 429, 503) },
});

/**
 * `POST /v1/account/deletion`: the request is stored, every key of the account is revoked at
 * once, a paid subscription is ended, and the purge job is queued for `purge_after`
 * (SVC_DELETION_DELAY_DAYS, 0 to 30). The job names only the request, never the account.
 */
export function registerAccountRoutes(app: OpenAPIHono, s: ApiServices): void {
  app.openapi(deletionRoute, async (c) => {
    const account = await actingAccount(c, s);
    if (account.role === "operator") {
      throw problem({ status: 403, code: "account.operator_undeletable", title: "Forbidden", detail: "The operator's own account cannot be deleted over the API." });
    }
    const d = s.dataHandling;
    const now = s.clock.now();
    const { request } = await d.deletions.request(account.id, now, new Date(now.getTime() + d.deletionDelayDays * DAY_MS));
    // In this order, so that a failure at any step leaves the keys working for a retry (which
    // answers the same request): Stripe stops charging before the purge can drop the customer
    // link, and the keys are revoked only once the purge is queued.
    if (!request.completed_at) await s.billing?.cancelForDeletion(account.id, requestLog(s, c));
    // Listed before the purge is queued: it may run (and delete them) before they are revoked
    // here, and revoking is what makes this process's key cache forget them.
    const keys = (await s.keys.list(account.id)).filter((k) => !k.revoked_at);
    // Queued again on a repeated request: the purge runs once (it finds the request completed).
    await d.schedulePurge(request.id, new Date(request.purge_after));
    // Sessions first: a live dashboard session would replace a revoked dashboard key.
    await d.deletions.endSessions(account.id, now);
    for (const k of keys) await s.keys.revoke(account.id, k.id, now);
    c.header("cache-control", "no-store");
    return c.json({ id: request.id, status: request.completed_at ? ("completed" as const) : ("scheduled" as const), requested_at: request.requested_at, purge_after: request.purge_after }, 202);
  });
}
