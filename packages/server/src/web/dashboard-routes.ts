import type { OpenAPIHono } from "@hono/zod-openapi";
import { parseEntity } from "@svc/core";
import type { Context } from "hono";
import type { ApiServices } from "../services.js";
import { APP_CSS, APP_JS, ICON_SVG } from "./assets.js";
import { dashboardPage, graphPage, signInPage } from "./pages.js";
import { currentUser } from "./session.js";

/** The pages' own headers: no framing, scripts and styles from this origin only, nothing cached. */
function pageHeaders(c: Context): void {
  c.header("content-security-policy", "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'");
  c.header("x-frame-options", "DENY");
  c.header("referrer-policy", "same-origin");
  c.header("x-content-type-options", "nosniff");
  c.header("cache-control", "no-store");
}

/**
 * `GET /` for a browser: the dashboard with a session, else the sign-in page (the JSON
 * description of the service stays for clients that ask for JSON: routes/home.ts).
 */
export async function browserHome(s: ApiServices, c: Context, routes: readonly { method: string; path: string }[]): Promise<Response> {
  pageHeaders(c);
  const user = await currentUser(s, c);
  const account = user ? await s.accounts.get(user.account_id) : null;
  if (!user || !account) return c.html(signInPage({ mode: "login", providers: [...s.web.oauth.values()] }));
  // The deletion request belongs to the data-handling module; the button says so when it is absent.
  const deletion = routes.some((r) => r.method === "POST" && r.path === "/v1/account/deletion");
  const billing = s.billing ? (await s.billing.status(account.id)).subscription : null;
  const back = c.req.query("checkout");
  const returned: "success" | "canceled" | undefined = back === "success" ? "success" : back === "canceled" ? "canceled" : undefined;
  const view = s.billing ? { customer: billing !== null, subscription: billing?.subscriptionId ? billing : null, ...(returned ? { returned } : {}) } : null;
  return c.html(dashboardPage(user, account, { deletionRoute: deletion, billing: view }));
}


export function registerDashboardRoutes(app: OpenAPIHono, s: ApiServices): void {
  app.get("/web/app.js", (c) => {
    c.header("cache-control", "public, max-age=300");
    return c.body(APP_JS, 200, { "content-type": "text/javascript; charset=utf-8" });
  });
  app.get("/web/app.css", (c) => {
    c.header("cache-control", "public, max-age=300");
    return c.body(APP_CSS, 200, { "content-type": "text/css; charset=utf-8" });
  });
  // Browsers ask for /favicon.ico on their own; the pages also link the icon.
  for (const path of ["/favicon.ico", "/web/icon.svg"]) {
    app.get(path, (c) => {
      c.header("cache-control", "public, max-age=86400");
      return c.body(ICON_SVG, 200, { "content-type": "image/svg+xml" });
    });
  }
  app.get("/graph", async (c) => {
    pageHeaders(c);
    const user = await currentUser(s, c);
    if (!user) return c.redirect("/", 303);
    const type = c.req.query("type") ?? "domain";
    const value = c.req.query("value") ?? "";
    if (!value) return c.html(graphPage(user, { type, value }, null));
    const parsed = parseEntity(value, { type: type as never });
    if (!parsed.ok) return c.html(graphPage(user, { type, value }, null, parsed.error.message), 422);
    const walk = await s.graph.walk(parsed.entity.id, { depth: 2, maxNodes: 60, accountId: user.account_id });
    return c.html(graphPage(user, { type, value }, { root: walk.root.id, nodes: walk.nodes, edges: walk.edges, truncated: walk.truncated }));
  });
}
