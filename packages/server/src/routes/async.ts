import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { EntityTypeSchema, ProblemSchema, safeJsonRecord, safeText, VerdictSchema } from "@svc/contracts";
import { parseEntity } from "@svc/core";
import { ASYNC_JOB_STATUSES } from "@svc/server-ports";
import type { Context } from "hono";
import { idempotent } from "../idempotency.js";
import { callerOf } from "../middleware/auth.js";
import { charged } from "../middleware/rate-limit.js";
import { entityProblem, problem } from "../problem.js";
import type { ApiServices } from "../services.js";

/** Asynchronous checks, jobs and webhook secrets (DESIGN.md §4; docs/webhooks.md). */

const MAX_METADATA_BYTES = 4096;

const AsyncScreenRequestSchema = z
  .object({
    entity_value: z.string().min(1).max(4096).openapi({ example: "paypa1.com" }),
    type: EntityTypeSchema.optional(),
    webhook_url: safeText(z.string().min(1).max(2048)).optional().openapi({
      example: "https://example.com/hooks/svc",
      description: "Called with a signed `screen.completed` or `screen.failed` event. http(s) only; must resolve to public addresses.",
    }),
    // Safe text and bounded nesting first: PostgreSQL refuses NUL, and a deep value must not reach JSON.stringify.
    metadata: safeJsonRecord()
      .refine((m) => Buffer.byteLength(JSON.stringify(m)) <= MAX_METADATA_BYTES, `metadata must be at most ${MAX_METADATA_BYTES} bytes of JSON`)
      .optional()
      .openapi({ description: "Echoed back in the job and the webhook.", example: { order_id: "A-1001" } }),
  })
  .strict()
  .openapi("AsyncScreenRequest");

const AsyncAcceptedSchema = z
  .object({ job_id: z.string(), status: z.literal("queued"), poll_url: z.string() })
  .openapi("AsyncAccepted");

const WebhookAttemptSchema = z.object({
  attempt: z.number().int(), at: z.string(), outcome: z.string(), status_code: z.number().int().nullable(), duration_ms: z.number().int(), error: z.string().nullable(),
});

const JobSchema = z
  .object({
    id: z.string(),
    status: z.enum(ASYNC_JOB_STATUSES as [string, ...string[]]).openapi({ description: "queued → running → succeeded | failed | canceled" }),
    created_at: z.string(),
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
    request: z.object({ entity_value: z.string(), type: EntityTypeSchema.optional() }),
    metadata: z.record(z.string(), z.any()).nullable(),
    result: VerdictSchema.nullable().openapi({ description: "The verdict, once succeeded." }),
    check_id: z.string().nullable().openapi({ description: "The audit record of the verdict (GET /v1/audit/{id})." }),
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
    webhook: z
      .object({
        url: z.string(),
        status: z.enum(["pending", "retrying", "delivered", "failed", "disabled", "canceled"]),
        message_id: z.string().nullable().openapi({ description: "The webhook-id header, the same on every retry." }),
        event: z.string().nullable(),
        attempts: z.number().int(),
        last_attempt_at: z.string().nullable(),
        next_attempt_at: z.string().nullable(),
        last_status_code: z.number().int().nullable(),
        deliveries: z.array(WebhookAttemptSchema),
      })
      .nullable(),
  })
  .openapi("Job");

const WebhookSecretSchema = z
  .object({
    secret: z.string().openapi({ example: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" }),
    created_at: z.string(),
    previous_expires_at: z.string().nullable().openapi({ description: "Until then the previous secret signs too (a second signature)." }),
  })
  .openapi("WebhookSecret");

const problems = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((st) => [st, { description: "Problem details (RFC 9457)", content: { "application/problem+json": { schema: ProblemSchema } } }]));
const common = problems(400, 401, 413, 415, 422, 429, 503);
const security = [{ ApiKey: [] }];
const idempotencyHeader = z.object({ "idempotency-key": z.string().min(1).max(255).optional().openapi({ description: "Same key + same body replays the first response for 24 h." }) });
const jobParams = z.object({ id: z.string().min(1).max(64) });

export const asyncScreenRoute = createRoute({
  method: "post", path: "/v1/screen/async", tags: ["screening"], security,
  summary: "Screen one entity in the background; poll the job or receive a signed webhook (costs 1 check)",
  request: { body: { content: { "application/json": { schema: AsyncScreenRequestSchema } }, required: true }, headers: idempotencyHeader },
  responses: {
    202: { description: "Accepted; `Location` is the job", headers: z.object({ Location: z.string() }), content: { "application/json": { schema: AsyncAcceptedSchema } } },
    ...common, ...problems(409),
  },
});

export const jobRoute = createRoute({
  method: "get", path: "/v1/jobs/{id}", tags: ["screening"], security, summary: "One of your asynchronous checks: state, verdict or error, webhook delivery",
  request: { params: jobParams },
  responses: { 200: { description: "The job", content: { "application/json": { schema: JobSchema } } }, ...common, ...problems(404) },
});

export const cancelJobRoute = createRoute({
  method: "post", path: "/v1/jobs/{id}/cancel", tags: ["screening"], security, summary: "Cancel a job that has not started (send `{}`)",
  request: { params: jobParams },
  responses: { 200: { description: "Canceled", content: { "application/json": { schema: JobSchema } } }, ...common, ...problems(404, 409) },
});

export const webhookSecretRoute = createRoute({
  method: "get", path: "/v1/webhook-secret", tags: ["webhooks"], security, summary: "Your webhook signing secret (created on first use)",
  responses: { 200: { description: "The secret", content: { "application/json": { schema: WebhookSecretSchema } } }, ...common },
});

export const rotateWebhookSecretRoute = createRoute({
  method: "post", path: "/v1/webhook-secret/rotate", tags: ["webhooks"], security,
  summary: "A new signing secret; the previous one keeps signing for 24 h (send `{}`)",
  request: { headers: idempotencyHeader },
  responses: { 200: { description: "The new secret", content: { "application/json": { schema: WebhookSecretSchema } } }, ...common, ...problems(409) },
});

const notFound = () => problem({ status: 404, code: "job.not_found", title: "Not found", detail: "No job with this id in your account." });

export function registerAsyncRoutes(app: OpenAPIHono, s: ApiServices): void {
  const respond = (c: Context, r: { status: number; body: unknown }) => c.json(r.body as never, r.status as never);
  // Accounts known to have a signing secret: saves a lookup per submission (secrets are never deleted).
  const haveSecret = new Set<string>();

  app.openapi(asyncScreenRoute, async (c) => {
    const caller = callerOf(c);
    const body = c.req.valid("json");
    const accepted = (jobId: string) => ({ status: 202, body: { job_id: jobId, status: "queued", poll_url: `/v1/jobs/${jobId}` } });
    const result = await idempotent(c, s, caller.accountId, async (claim) => {
      // A retry after the request holding this key died: the job it may have created (and that
      // may already be running or delivered) is the answer; it was charged for already.
      if (claim?.recovered) {
        const earlier = await s.async.jobs.findByIdempotencyKey(caller.accountId, claim.key, claim.recovered.claimed_at);
        if (earlier) return accepted(earlier.id);
      }
      // A refused entity or webhook URL costs nothing: the charge is refunded.
      return charged(c, s, caller, 1, async () => {
        // The same answers as the synchronous route for a bad entity: refused now, not in a webhook later.
        const parsed = parseEntity(body.entity_value, body.type ? { type: body.type } : {});
        if (!parsed.ok) throw problem(entityProblem(parsed.error));
        let webhookUrl: string | null = null;
        if (body.webhook_url !== undefined) {
          const checked = await s.async.webhookUrls.check(body.webhook_url);
          if (!checked.ok) {
            throw problem({ status: 422, code: checked.code, title: "The webhook URL is refused", detail: checked.message, errors: [{ pointer: "/webhook_url", code: checked.code, message: checked.message }] });
          }
          webhookUrl = checked.url;
          if (!haveSecret.has(caller.accountId)) {
            await s.async.webhookSecrets.current(caller.accountId, s.clock.now());
            if (haveSecret.size > 100_000) haveSecret.clear();
            haveSecret.add(caller.accountId);
          }
        }
        const job = await s.async.jobs.submit({
          id: s.ids.next("job"),
          account_id: caller.accountId,
          key_id: caller.keyId,
          request: body.type ? { entity_value: body.entity_value, type: body.type } : { entity_value: body.entity_value },
          webhook_url: webhookUrl,
          metadata: body.metadata ?? null,
          created_at: s.clock.now(),
          idempotency_key: claim?.key ?? null,
        });
        return accepted(job.id);
      });
    });
    c.header("Location", (result.body as { poll_url: string }).poll_url);
    return respond(c, result);
  });

  app.openapi(jobRoute, async (c) => {
    const job = await s.async.jobs.get(callerOf(c).accountId, c.req.valid("param").id);
    // Another account's job is indistinguishable from an unknown one.
    if (!job) throw notFound();
    return c.json(job as never, 200);
  });

  app.openapi(cancelJobRoute, async (c) => {
    const r = await s.async.jobs.cancel(callerOf(c).accountId, c.req.valid("param").id, s.clock.now());
    if (r.ok) return c.json(r.job as never, 200);
    if (!r.job) throw notFound();
    throw problem({ status: 409, code: "job.not_cancelable", title: "Too late to cancel", detail: `The job is ${r.job.status}; only a queued job can be canceled.` });
  });

  app.openapi(webhookSecretRoute, async (c) => c.json((await s.async.webhookSecrets.current(callerOf(c).accountId, s.clock.now())) as never, 200));

  app.openapi(rotateWebhookSecretRoute, async (c) => {
    const caller = callerOf(c);
    const result = await idempotent(c, s, caller.accountId, async () => ({ status: 200, body: await s.async.webhookSecrets.rotate(caller.accountId, s.clock.now()) }));
    return respond(c, result);
  });
}
