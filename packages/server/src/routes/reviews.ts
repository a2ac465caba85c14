import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import {
  OperatorReviewSchema, ProblemSchema, ResolveReviewRequestSchema, ReviewQueueQuerySchema, ReviewQueueSchema, ReviewRequestSchema, ReviewSchema,
} from "@svc/contracts";
import type { CheckReview } from "@svc/persistence";
import { openCursor, sealCursor } from "../cursor.js";
import { callerOf, requireOperator } from "../middleware/auth.js";
import { problem } from "../problem.js";
import type { ApiServices } from "../services.js";

const problems = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((st) => [st, { description: "Problem details (RFC 9457)", content: { "application/problem+json": { schema: ProblemSchema } } }]));
const common = problems(400, 401, 413, 415, 422, 429, 503);
const security = [{ ApiKey: [] }];
const params = z.object({ id: z.string().min(1).max(64) });
const json = <T extends z.ZodType>(schema: T) => ({ content: { "application/json": { schema } }, required: true });
const one = (description: string) => ({ description, content: { "application/json": { schema: ReviewSchema } } });

export const requestReviewRoute = createRoute({
  method: "post", path: "/v1/checks/{id}/review", tags: ["review"], security,
  summary: "Ask a person to review one of your checks' verdicts (one review per check; asking again answers it)",
  request: { params, body: json(ReviewRequestSchema) },
  responses: { 202: one("Queued for review"), 200: one("Already requested: its status"), ...common, ...problems(404) },
});

export const reviewStatusRoute = createRoute({
  method: "get", path: "/v1/checks/{id}/review", tags: ["review"], security,
  summary: "The review of one of your checks: pending, or resolved with its outcome and note",
  request: { params },
  responses: { 200: one("The review"), ...common, ...problems(404) },
});

export const reviewQueueRoute = createRoute({
  method: "get", path: "/v1/reviews", tags: ["review"], security,
  summary: "The human-review queue, oldest first (operator only)",
  request: { query: ReviewQueueQuerySchema },
  responses: { 200: { description: "A page of reviews", content: { "application/json": { schema: ReviewQueueSchema } } }, ...common, ...problems(403) },
});

export const resolveReviewRoute = createRoute({
  method: "post", path: "/v1/reviews/{id}/resolve", tags: ["review"], security,
  summary: "Resolve a review with an outcome (operator only); the requester sees it on GET /v1/checks/{id}/review",
  request: { params, body: json(ResolveReviewRequestSchema) },
  responses: { 200: { description: "The resolved review", content: { "application/json": { schema: OperatorReviewSchema } } }, ...common, ...problems(403, 404) },
});

const notFound = () => problem({ status: 404, code: "review.not_found", title: "Not found", detail: "No review of this check in your account." });
const forRequester = ({ account_id: _a, ...r }: CheckReview) => r;

/**
 * Human review. A customer asks about its own checks and sees only its own reviews (another
 * account's check or review id answers like an unknown one); the operator works the queue.
 */
export function registerReviewRoutes(app: OpenAPIHono, s: ApiServices): void {
  const reviews = s.dataHandling.reviews;

  app.openapi(requestReviewRoute, async (c) => {
    const caller = callerOf(c);
    const id = c.req.valid("param").id;
    if (!(await s.checks.get(caller.accountId, id))) throw problem({ status: 404, code: "audit.not_found", title: "Not found", detail: "No check with this id in your account." });
    const { review, created } = await reviews.request(caller.accountId, id, c.req.valid("json").reason, s.clock.now());
    return c.json(forRequester(review), created ? 202 : 200);
  });

  app.openapi(reviewStatusRoute, async (c) => {
    const review = await reviews.forCheck(callerOf(c).accountId, c.req.valid("param").id);
    if (!review) throw notFound();
    return c.json(forRequester(review), 200);
  });

  app.openapi(reviewQueueRoute, async (c) => {
    requireOperator(callerOf(c));
    const q = c.req.valid("query");
    const pos = q.cursor ? openCursor("reviews", q.cursor, s.cursorKey) : null;
    const after = pos ? { created_at: pos.at, id: pos.id } : null;
    const items = await reviews.queue(q.status, q.limit + 1, after);
    const page = items.slice(0, q.limit);
    const last = page.at(-1);
    // The operator decides on the verdict itself, read from the requester's audit trail.
    const withVerdicts = await Promise.all(page.map(async (r) => ({ ...r, verdict: (await s.checks.get(r.account_id, r.check_id))?.verdict ?? null })));
    const next_cursor = items.length > q.limit && last ? sealCursor("reviews", { at: last.created_at, id: last.id }, s.cursorKey) : null;
    // The verdict is the core's type; the contract's schema describes the same JSON.
    return c.json({ items: withVerdicts, next_cursor } as never, 200);
  });

  app.openapi(resolveReviewRoute, async (c) => {
    requireOperator(callerOf(c));
    const body = c.req.valid("json");
    if (body.outcome !== "upheld" && !body.note) {
      throw problem({ status: 422, code: "review.note_required", title: "A note is required", detail: `A review resolved as ${body.outcome} tells the requester why.`, errors: [{ pointer: "/note", code: "review.note_required", message: "required unless upheld" }] });
    }
    const review = await reviews.resolve(c.req.valid("param").id, body.outcome, body.note ?? null, s.clock.now());
    if (!review) throw problem({ status: 404, code: "review.not_found", title: "Not found", detail: "No review with this id." });
    return c.json(review, 200);
  });
}
