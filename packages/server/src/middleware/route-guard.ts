import type { Hono, MiddlewareHandler } from "hono";
import { TrieRouter } from "hono/router/trie-router";
import { problemResponse } from "../problem.js";

interface RouteTable {
  readonly size: number;
  readonly router: TrieRouter<string>;
  /** The methods allowed on a path (`ALL` for any), for the paths asked most recently. */
  readonly allowed: Map<string, ReadonlySet<string>>;
}

/** Paths whose answer is remembered; ids make paths many, so the memo is emptied when full. */
const REMEMBERED_PATHS = 1_000;

/**
 * 404 and 405 from the routes the app has registered, before authentication: a path that does
 * not exist is a 404 problem, and a known path asked with the wrong method is a 405 problem with
 * `Allow` — for routes added anywhere, without a list kept by hand. Route existence is public
 * (the OpenAPI document lists every route), so answering before the key check tells nothing,
 * and a typo in a path is not reported as a key problem.
 *
 * Middleware (`use`, method ALL with a wildcard) is not a route; `all(path)` without a
 * wildcard is, and allows every method.
 */
export function routeGuard(app: Pick<Hono, "routes">): MiddlewareHandler {
  let table: RouteTable | null = null;
  const build = (): RouteTable => {
    const router = new TrieRouter<string>();
    for (const r of app.routes) {
      if (r.method === "ALL" && r.path.endsWith("*")) continue;
      router.add("ALL", r.path, r.method.toUpperCase());
    }
    return { size: app.routes.length, router, allowed: new Map() };
  };
  const allowedOn = (t: RouteTable, path: string): ReadonlySet<string> => {
    let allowed = t.allowed.get(path);
    if (allowed === undefined) {
      const methods = new Set(t.router.match("ALL", path)[0].map(([method]) => method));
      // HEAD is answered by GET handlers.
      if (methods.has("GET")) methods.add("HEAD");
      allowed = methods;
      if (t.allowed.size >= REMEMBERED_PATHS) t.allowed.clear();
      t.allowed.set(path, allowed);
    }
    return allowed;
  };
  return async (c, next) => {
    // Routes are all registered before the first request; rebuilt only if more were added since.
    if (!table || table.size !== app.routes.length) table = build();
    const allowed = allowedOn(table, c.req.path);
    if (allowed.has("ALL")) return next();
    if (allowed.size === 0) {
      return problemResponse(c, { status: 404, code: "not_found", title: "Not found", detail: `No route ${c.req.method} ${c.req.path}; the routes are listed in /v1/openapi.json.` });
    }
    if (allowed.has(c.req.method)) return next();
    const allow = [...allowed].sort().join(", ");
    return problemResponse(c, {
      status: 405,
      code: "http.method_not_allowed",
      title: "Method not allowed",
      detail: `${c.req.path} does not accept ${c.req.method}; it accepts ${allow}.`,
      headers: { Allow: allow },
    });
  };
}
