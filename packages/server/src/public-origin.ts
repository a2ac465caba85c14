import type { Context } from "hono";

const HOST = /^(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/**
 * The origin the client used to reach this service, for links and examples shown to it: the
 * request's own Host, and `https` when a proxy in front says so in X-Forwarded-Proto. Only
 * "http" and "https" are taken from that header and only a well-formed host name, so nothing a
 * client sends can inject markup or another scheme; a client that sends its own value only sees
 * it in its own answer (responses carry `Vary` on both headers, so no cache mixes them up).
 */
export function publicOrigin(c: Context): string {
  const url = new URL(c.req.url);
  const host = HOST.test(url.host) ? url.host : "localhost";
  const forwarded = c.req.header("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
  const scheme = forwarded === "https" || forwarded === "http" ? forwarded : url.protocol.replace(/:$/, "");
  return `${scheme === "https" ? "https" : "http"}://${host}`;
}

export const ORIGIN_VARY = "Host, X-Forwarded-Proto";
