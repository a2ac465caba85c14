import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import {
  ConfirmReportRequestSchema, ProblemSchema, RejectReportRequestSchema, ReportListQuerySchema, ReportListResponseSchema, ReportSchema,
} from "@svc/contracts";
import { parseEntity, syncReportedWith, type ModerationStatus } from "@svc/core";
import type { Context } from "hono";
import { idempotent } from "../idempotency.js";
import { callerOf, requireOperator } from "../middleware/auth.js";
import { entityProblem, problem } from "../problem.js";
import type { ApiServices } from "../services.js";

/**
 * The moderation queue (docs/api.md "Moderation"; docs/decisions/0015). Operator only: a
 * customer key is refused with 403 before anything else is looked at. A confirmed report counts
 * in verdicts and its related entities enter the shared graph; a rejected one does neither.
 */

const problems = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((st) => [st, { description: "Problem details (RFC 9457)", content: { "application/problem+json": { schema: ProblemSchema } } }]));
const common = problems(400, 401, 403, 413, 415, 422, 429, 503);
const security = [{ ApiKey: [] }];
const idempotencyHeader = z.object({ "idempotency-key": z.string().min(1).max(255).optional().openapi({ description: "Same key + same body replays the first response for 24 h." }) });
const params = z.object({ id: z.string().min(1).max(64) });
const json = <T extends z.ZodType>(schema: T) => ({ content: { "application/json": { schema } }, required: true });
const one = { description: "The report with the decision recorded", content: { "application/json": { schema: ReportSchema } } };

export const listReportsRoute = createRoute({
  method: "get", path: "/v1/reports", tags: ["moderation"], security,
  summary: "The moderation queue: community reports, oldest first (operator only)",
  request: { query: ReportListQuerySchema },
  responses: { 200: { description: "A page of reports", content: { "application/json": { schema: ReportListResponseSchema } } }, ...common },
});

const confirmRoute = (verb: "confirm" | "approve") => createRoute({
  method: "post", path: `/v1/reports/{id}/${verb}`, tags: ["moderation"], security,
  summary: verb === "confirm" ? "Confirm a report: it counts in verdicts, its related entities enter the shared graph (operator only)" : "Same as confirm",
  request: { params, body: json(ConfirmReportRequestSchema), headers: idempotencyHeader },
  responses: { 200: one, ...common, ...problems(404, 409) },
});
export const confirmReportRoute = confirmRoute("confirm");
export const approveReportRoute = confirmRoute("approve");

export const rejectReportRoute = createRoute({
  method: "post", path: "/v1/reports/{id}/reject", tags: ["moderation"], security,
  summary: "Reject a report with a reason: it never counts, and what its confirmation put in the graph leaves it (operator only)",
  request: { params, body: json(RejectReportRequestSchema), headers: idempotencyHeader },
  responses: { 200: one, ...common, ...problems(404, 409) },
});

export function registerReportRoutes(app: OpenAPIHono, s: ApiServices): void {
  // Before validation, so a customer learns nothing about the queue, not even what it accepts.
  for (const path of ["/v1/reports", "/v1/reports/*"]) {
    app.use(path, async (c, next) => {
      requireOperator(callerOf(c));
      return next();
    });
  }

  app.openapi(listReportsRoute, async (c) => {
    const q = c.req.valid("query");
    let entityId: string | undefined;
    if (q.entity !== undefined) {
      const parsed = parseEntity(q.entity);
      if (!parsed.ok) throw problem(entityProblem(parsed.error, "/entity"));
      entityId = parsed.entity.id;
    }
    const page = await s.reports.list({ limit: q.limit, cursor: q.cursor ?? null, ...(q.status ? { status: q.status } : {}), ...(entityId ? { entity_id: entityId } : {}) });
    return c.json(page as never, 200);
  });

  const decide = async (c: Context, status: ModerationStatus, reason: string | null) => {
    const caller = callerOf(c);
    const id = c.req.param("id") as string;
    const result = await idempotent(c, s, caller.accountId, async () => {
      const done = await s.reports.moderate(id, { status, by: caller.accountId, reason, at: s.clock.now() });
      if (!done) throw problem({ status: 404, code: "report.not_found", title: "Not found", detail: `No report ${id}.` });
      // Also when nothing changed: repairs the graph if an earlier attempt stopped half-way.
      await syncReportedWith(s, done.report.entity.id, done.report.related_entities, new Date(done.report.moderated_at ?? s.clock.now()));
      return { status: 200, body: done.report };
    });
    return c.json(result.body as never, result.status as never);
  };

  app.openapi(confirmReportRoute, (c) => decide(c, "confirmed", c.req.valid("json").reason ?? null));
  app.openapi(approveReportRoute, (c) => decide(c, "confirmed", c.req.valid("json").reason ?? null));
  app.openapi(rejectReportRoute, (c) => decide(c, "rejected", c.req.valid("json").reason));
}
