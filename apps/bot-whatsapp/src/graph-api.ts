import { WhatsAppAPI } from "whatsapp-api-js";

const GRAPH_ORIGIN = "https://graph.facebook.com";

export interface GraphApiOptions {
  readonly token: string;
  readonly appSecret: string;
  readonly verifyToken: string;
  readonly version: string;
  /** The Graph API origin; a local fake in tests. */
  readonly baseUrl: string;
  /** The fetch underneath (default: the global one). */
  readonly fetch?: typeof fetch;
  /** Each Graph API call is abandoned after this long (it is then retried as a network failure). */
  readonly timeoutMs?: number;
}

/**
 * whatsapp-api-js with its fetch injected: calls to graph.facebook.com go to `baseUrl`
 * instead, each bounded by a timeout. Everything else (request shapes, the signature check,
 * the verification challenge) is the library's own.
 */
export function createGraphApi(o: GraphApiOptions): WhatsAppAPI {
  const base = o.baseUrl.endsWith("/") ? o.baseUrl.slice(0, -1) : o.baseUrl;
  const inner = o.fetch ?? fetch;
  const timeout = o.timeoutMs ?? 10_000;
  const rebased: typeof fetch = (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const target = url.startsWith(GRAPH_ORIGIN) ? `${base}${url.slice(GRAPH_ORIGIN.length)}` : url;
    return inner(target, { ...init, signal: init?.signal ?? AbortSignal.timeout(timeout) });
  };
  return new WhatsAppAPI({ token: o.token, appSecret: o.appSecret, webhookVerifyToken: o.verifyToken, v: o.version, ponyfill: { fetch: rebased } });
}
