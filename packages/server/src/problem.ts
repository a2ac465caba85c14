import type { Context } from "hono";
import { requestIdOf } from "./middleware/request-id.js";

/**
 * RFC 9457 problem details with a stable `code`. Errors are values with a code everywhere in the
 * code base; this is the one place they become HTTP.
 */
export interface ProblemInit {
  readonly status: number;
  readonly code: string;
  readonly title: string;
  readonly detail: string;
  readonly retryable?: boolean;
  readonly errors?: readonly { pointer: string; code: string; message: string }[];
  readonly headers?: Record<string, string>;
}

export class ApiProblem extends Error {
  constructor(readonly init: ProblemInit) {
    super(init.detail);
  }
}

export const problem = (init: ProblemInit): ApiProblem => new ApiProblem(init);

export function problemResponse(c: Context, p: ProblemInit): Response {
  const body = {
    type: `https://svc.dev/problems/${p.code}`,
    title: p.title,
    status: p.status,
    detail: p.detail,
    code: p.code,
    request_id: requestIdOf(c),
    retryable: p.retryable ?? (p.status === 429 || p.status === 503),
    ...(p.errors && p.errors.length > 0 ? { errors: p.errors } : {}),
  };
  return new Response(JSON.stringify(body), {
    status: p.status,
    headers: { "content-type": "application/problem+json", ...p.headers },
  });
}

/** Entity parse errors → 422, with the stable entity.* code. */
export const entityProblem = (error: { code: string; message: string }, pointer = "/entity_value"): ProblemInit => ({
  status: 422,
  code: error.code,
  title: "The entity cannot be screened",
  detail: error.message,
  errors: [{ pointer, code: error.code, message: error.message }],
});

/** zod issues → JSON pointers, so a client can show which field is wrong. */
export function validationProblem(issues: readonly { path: readonly PropertyKey[]; code: string; message: string }[]): ProblemInit {
  // A refinement names its own code (`params.code`, e.g. invalid_text) rather than zod's generic "custom".
  const errors = issues.map((i) => ({ pointer: `/${i.path.map(String).join("/")}`, code: `validation.${(i as { params?: { code?: unknown } }).params?.code ?? i.code}`, message: i.message }));
  return {
    status: 422,
    code: "request.invalid",
    title: "The request is not valid",
    detail: errors.map((e) => `${e.pointer}: ${e.message}`).join("; "),
    errors,
  };
}
