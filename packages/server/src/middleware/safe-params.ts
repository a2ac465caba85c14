import { hasUnsafeText, UNSAFE_TEXT_MESSAGE } from "@svc/contracts";
import type { MiddlewareHandler } from "hono";
import { problem } from "../problem.js";

const invalid = (pointer: string, detail: string) =>
  problem({ status: 400, code: "request.invalid_text", title: "Invalid characters", detail, errors: [{ pointer, code: "request.invalid_text", message: detail }] });

function decoded(raw: string, pointer: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, " "));
  } catch {
    throw invalid(pointer, "Malformed percent-encoding (not UTF-8).");
  }
}

/**
 * Path segments and query parameters, percent-decoded, must be text the database can store: ids
 * and filters go into SQL as parameters, and PostgreSQL refuses NUL (`/v1/jobs/%00`). Checked
 * once for every route, before any handler, so no parameter reaches the database unchecked.
 */
export const safeParams = (): MiddlewareHandler => async (c, next) => {
  // Nothing percent-encoded and no query (POST /v1/screen and most requests): the text as sent
  // is what a decoder would give, so one look at it is enough. Anything it finds goes the long
  // way, for the answer that names the place.
  if (!c.req.url.includes("%") && !c.req.url.includes("?") && !hasUnsafeText(c.req.url)) return next();
  const url = new URL(c.req.url);
  for (const segment of url.pathname.split("/")) {
    if (hasUnsafeText(decoded(segment, "/path"))) throw invalid("/path", `The path ${UNSAFE_TEXT_MESSAGE}.`);
  }
  for (const pair of url.search.slice(1).split("&")) {
    if (pair === "") continue;
    const eq = pair.indexOf("=");
    const name = decoded(eq < 0 ? pair : pair.slice(0, eq), "/query");
    const value = eq < 0 ? "" : decoded(pair.slice(eq + 1), `/query/${name}`);
    if (hasUnsafeText(name) || hasUnsafeText(value)) throw invalid(`/query/${hasUnsafeText(name) ? "" : name}`, `Query parameters ${UNSAFE_TEXT_MESSAGE}.`);
  }
  return next();
};
