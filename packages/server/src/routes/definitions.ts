import { createRoute, z } from "@hono/zod-openapi";
import {
  AuditRecordSchema, BatchRequestSchema, BatchResponseSchema, EntityTypeSchema, ExportQuerySchema, GraphQuerySchema, GraphResponseSchema, HistoryQuerySchema,
  HistoryResponseSchema, ProblemSchema, ReportAcceptedSchema, ReportRequestSchema, ScreenRequestSchema, VerdictSchema,
} from "@svc/contracts";

/** The /v1 operations, described once: validation, and the OpenAPI document, both come from here. */
const problems = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((s) => [s, { description: "Problem details (RFC 9457)", content: { "application/problem+json": { schema: ProblemSchema } } }]));
const common = problems(400, 401, 413, 415, 422, 429, 503);
const security = [{ ApiKey: [] }];
const idempotencyHeader = z.object({ "idempotency-key": z.string().min(1).max(255).optional().openapi({ description: "Same key + same body replays the first response for 24 h." }) });
const json = <T extends z.ZodType>(schema: T) => ({ content: { "application/json": { schema } }, required: true });

export const screenRoute = createRoute({
  method: "post", path: "/v1/screen", tags: ["screening"], summary: "Screen one entity", security,
  request: { body: json(ScreenRequestSchema), headers: idempotencyHeader },
  responses: { 200: { description: "The verdict", content: { "application/json": { schema: VerdictSchema } } }, ...common, ...problems(409) },
});

export const batchRoute = createRoute({
  method: "post", path: "/v1/screen/batch", tags: ["screening"], summary: "Screen up to 100 entities (a batch of N costs N checks)", security,
  request: { body: json(BatchRequestSchema), headers: idempotencyHeader },
  responses: { 200: { description: "Results in input order", content: { "application/json": { schema: BatchResponseSchema } } }, ...common, ...problems(409) },
});

export const historyRoute = createRoute({
  method: "get", path: "/v1/history", tags: ["audit"], summary: "Your recent checks, newest first", security,
  request: { query: HistoryQuerySchema },
  responses: { 200: { description: "A page of history", content: { "application/json": { schema: HistoryResponseSchema } } }, ...common },
});

export const exportRoute = createRoute({
  method: "get", path: "/v1/audit/export", tags: ["audit"], summary: "Your audit records as CSV (streamed, RFC 4180, formula-safe)", security,
  request: { query: ExportQuerySchema },
  responses: { 200: { description: "CSV", content: { "text/csv": { schema: z.string() } } }, ...common },
});

export const auditRoute = createRoute({
  method: "get", path: "/v1/audit/{id}", tags: ["audit"], summary: "The full audit record of one of your checks", security,
  request: { params: z.object({ id: z.string().min(1).max(64) }) },
  responses: { 200: { description: "Audit record", content: { "application/json": { schema: AuditRecordSchema } } }, ...common, ...problems(404) },
});

export const reportRoute = createRoute({
  method: "post", path: "/v1/report", tags: ["reports"], summary: "Report a scam, or dispute a verdict", security,
  request: { body: json(ReportRequestSchema), headers: idempotencyHeader },
  responses: { 202: { description: "Received", content: { "application/json": { schema: ReportAcceptedSchema } } }, ...common, ...problems(404, 409) },
});

export const graphRoute = createRoute({
  method: "get", path: "/v1/graph/{type}/{value}", tags: ["graph"], summary: "Entities related to this one, breadth-first", security,
  request: { params: z.object({ type: EntityTypeSchema, value: z.string().min(1).max(4096) }), query: GraphQuerySchema },
  responses: { 200: { description: "Graph", content: { "application/json": { schema: GraphResponseSchema } } }, ...common },
});
