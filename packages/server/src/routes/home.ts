import type { OpenAPIHono } from "@hono/zod-openapi";
import { docsPage, homePage } from "../docs-page.js";
import { ORIGIN_VARY, publicOrigin } from "../public-origin.js";
import type { ApiServices } from "../services.js";
import { browserHome } from "../web/dashboard-routes.js";

const OPENAPI_PATH = "/v1/openapi.json";

/** JSON only when the client asks for it and not for HTML first: browsers and curl get the page. */
function wantsJson(accept: string | undefined): boolean {
  if (!accept) return false;
  const json = accept.search(/application\/(?:[\w.+-]+\+)?json/i);
  const html = accept.search(/text\/html/i);
  return json >= 0 && (html < 0 || json < html);
}

/** `GET /` (what this service is) and `GET /docs` (the API reference page); no key needed. */
export function registerHomeRoutes(app: OpenAPIHono, s: ApiServices): void {
  app.get("/", async (c) => {
    const origin = publicOrigin(c);
    c.header("Vary", `Accept, ${ORIGIN_VARY}`);
    if (wantsJson(c.req.header("accept"))) {
      return c.json({
        name: "svc",
        description: "Entity risk screening: a 0–100 risk score, risk level, confidence and explained signals for domains, URLs, wallet addresses, e-mail addresses, IPv4 addresses, phone numbers and social accounts.",
        api_version: "v1",
        links: { docs: `${origin}/docs`, openapi: `${origin}${OPENAPI_PATH}`, health: `${origin}/healthz` },
        disclaimer: "Automated risk indicator for information only; not legal, financial or investment advice.",
      });
    }
    // A browser gets the dashboard, or the sign-in page; other clients (curl) the description.
    if (/text\/html/i.test(c.req.header("accept") ?? "")) return browserHome(s, c, app.routes);
    return c.html(homePage(origin));
  });
  app.get("/docs", (c) => {
    c.header("Vary", ORIGIN_VARY);
    return c.html(docsPage(OPENAPI_PATH, publicOrigin(c)));
  });
}
