import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit as streamedBodyLimit } from "hono/body-limit";

/**
 * Hono's body limit, without its cost on the common case. A request that declares its length
 * (`Content-Length`, no `Transfer-Encoding`) is judged by that header, as Hono's middleware
 * does, but read through `c.req.header`: touching `c.req.raw.body` would make @hono/node-server
 * build a full web `Request` (a ReadableStream, an AbortController) for every request, which the
 * JSON body parser never needs. A chunked body, whose length is known only once read, goes
 * through Hono's middleware, which counts it as it arrives.
 */
export function bodyLimit(options: { maxSize: number; onError: (c: Context) => Response | Promise<Response> }): MiddlewareHandler {
  const streamed = streamedBodyLimit(options);
  return async (c, next) => {
    if (c.req.method === "GET" || c.req.method === "HEAD") return next();
    const length = c.req.header("content-length");
    if (length !== undefined && c.req.header("transfer-encoding") === undefined) {
      return Number.parseInt(length, 10) > options.maxSize ? options.onError(c) : next();
    }
    return streamed(c, next);
  };
}
