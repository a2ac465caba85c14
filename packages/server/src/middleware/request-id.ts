import { requestLogger, type Logger } from "@svc/runtime";
import type { Context, MiddlewareHandler } from "hono";

const SAFE_ID = /^[\w.:-]{8,128}$/;

/**
 * Every response carries X-Request-Id: the caller's, when it is a sane token, else a new one.
 * Lines logged about the request carry it as `request_id` (`requestLog`, or the field itself).
 */
export const requestId = (next: () => string): MiddlewareHandler => async (c, run) => {
  const given = c.req.header("x-request-id");
  const id = given && SAFE_ID.test(given) ? given : next();
  c.set("requestId" as never, id as never);
  await run();
  c.res.headers.set("X-Request-Id", id);
};

/** The request's id, as the middleware above set it. */
export const requestIdOf = (c: Context): string => (c.get("requestId" as never) as string | undefined) ?? "unknown";

/** A logger for what is written on behalf of this request: every line carries its `request_id`. */
export const requestLog = (s: { readonly logger: Logger }, c: Context): Logger => requestLogger(s.logger, requestIdOf(c));
