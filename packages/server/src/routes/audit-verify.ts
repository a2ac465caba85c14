import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { AuditVerifyQuerySchema, AuditVerifyResponseSchema, ProblemSchema, type AuditVerification } from "@svc/contracts";
import { callerOf, requireOperator } from "../middleware/auth.js";
import { problem } from "../problem.js";
import type { ApiServices } from "../services.js";

const problems = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((s) => [s, { description: "Problem details (RFC 9457)", content: { "application/problem+json": { schema: ProblemSchema } } }]));

export const auditVerifyRoute = createRoute({
  method: "get", path: "/v1/audit/verify", tags: ["audit"], security: [{ ApiKey: [] }],
  summary: "Verify an account's audit chain (operator only)",
  description: "Re-computes the keyed hash of every record of the account's chain, in order and in blocks, and checks the chain head. Answers 200 whatever the outcome; `ok` says whether the chain is intact.",
  request: { query: AuditVerifyQuerySchema },
  responses: { 200: { description: "Verification result", content: { "application/json": { schema: AuditVerifyResponseSchema } } }, ...problems(400, 401, 403, 404, 422, 429, 503) },
});

/**
 * Audit chain verification. Operator only: the walk reads a whole chain (costly to repeat at
 * will), and it proves something only to whoever trusts the server's key, which is the operator.
 * Registered before `GET /v1/audit/{id}`, which would otherwise take "verify" for an id.
 */
export function registerAuditVerifyRoutes(app: OpenAPIHono, s: ApiServices): void {
  app.openapi(auditVerifyRoute, async (c) => {
    const caller = callerOf(c);
    requireOperator(caller);
    const q = c.req.valid("query");
    const since = q.since ? new Date(q.since) : undefined;
    const until = q.until ? new Date(q.until) : undefined;
    if (since && until && since.getTime() >= until.getTime()) {
      throw problem({ status: 422, code: "request.invalid_range", title: "Invalid range", detail: "`since` must be before `until`.", errors: [{ pointer: "/since", code: "request.invalid_range", message: "since must be before until" }] });
    }
    const accountId = q.account_id ?? caller.accountId;
    if (accountId !== caller.accountId && !(await s.accounts.get(accountId))) {
      throw problem({ status: 404, code: "account.not_found", title: "Not found", detail: `No account ${accountId}.` });
    }
    const r = await s.checks.verifyChain(accountId, { ...(since ? { since } : {}), ...(until ? { until } : {}) });
    const body: AuditVerification = { ok: r.ok, account_id: accountId, checked: r.checked, legacy: r.legacy, first_bad: r.first_bad ?? null };
    return c.json(body, 200);
  });
}
