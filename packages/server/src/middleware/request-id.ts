import { withLogContext } from "@svc/runtime";
import type { MiddlewareHandler } from "hono";

const SAFE_ID = /^[\w.:-]{8,128}$/;

/**
 * Every response carries X-Request-Id: the caller's, when it is a sane token, else a new one.
 * Every log line written while the request is served carries it as `request_id`.
 */
export const requestId = (next: () => string): MiddlewareHandler => async (c, run) => {
  const given = c.req.header("x-request-id");
  const id = given && SAFE_ID.test(given) ? given : next();
  c.set("requestId" as never, id as never);
  await withLogContext({ request_id: id }, run);
  c.res.headers.set("X-Request-Id", id);
};
