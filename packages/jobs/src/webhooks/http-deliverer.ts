import http from "node:http";
import https from "node:https";
import { isIP, type Socket } from "node:net";
import { AddressPolicy, guardedLookup, hostOfUrl, SsrfBlockedError, systemResolver, type Resolver } from "./ssrf.js";

/** Standard Webhooks: a receiver has 15 s to answer. */
export const DELIVERY_TIMEOUT_MS = 15_000;
const MAX_RESPONSE_BYTES = 64 * 1024;

export interface DeliveryRequest {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export type DeliveryOutcomeKind =
  | "delivered" // 2xx
  | "gone" // 410: the endpoint is disabled
  | "redirect" // 3xx: a failure, never followed
  | "http_error" // any other status
  | "timeout"
  | "blocked" // the SSRF guard refused the address
  | "network"; // refused, reset, DNS failure, TLS error...

export interface DeliveryOutcome {
  readonly kind: DeliveryOutcomeKind;
  readonly statusCode: number | null;
  readonly error: string | null;
  readonly durationMs: number;
  /** From a 429/503 `Retry-After`, when given. */
  readonly retryAfterMs: number | null;
}

export interface Deliverer {
  deliver(request: DeliveryRequest): Promise<DeliveryOutcome>;
  close(): void;
}

export interface HttpDelivererOptions {
  readonly policy: AddressPolicy;
  readonly resolve?: Resolver;
  readonly timeoutMs?: number;
  readonly maxSocketsPerHost?: number;
  readonly userAgent?: string;
}

/**
 * Refuses a socket whose connected address fails the policy, before a byte is written: the
 * check is registered before the request's own write, so it runs first on `connect`. This
 * catches IP literals too, for which Node never calls `lookup`.
 */
function guardSocket(socket: Socket, policy: AddressPolicy, host: string): void {
  socket.once("connect", () => {
    const addr = socket.remoteAddress;
    if (!addr || !policy.allows(addr)) socket.destroy(new SsrfBlockedError(host, addr ?? "an unknown address"));
  });
}

class GuardedHttpAgent extends http.Agent {
  constructor(private readonly policy: AddressPolicy, options: http.AgentOptions) {
    super(options);
  }
  override createConnection(options: http.ClientRequestArgs, cb?: (err: Error | null, socket: Socket) => void): Socket {
    const socket = (http.Agent.prototype as unknown as { createConnection: (o: unknown, c: unknown) => Socket }).createConnection.call(this, options, cb);
    guardSocket(socket, this.policy, String(options.host ?? ""));
    return socket;
  }
}

class GuardedHttpsAgent extends https.Agent {
  constructor(private readonly policy: AddressPolicy, options: https.AgentOptions) {
    super(options);
  }
  override createConnection(options: http.ClientRequestArgs, cb?: (err: Error | null, socket: Socket) => void): Socket {
    const socket = (https.Agent.prototype as unknown as { createConnection: (o: unknown, c: unknown) => Socket }).createConnection.call(this, options, cb);
    guardSocket(socket, this.policy, String(options.host ?? ""));
    return socket;
  }
}

/**
 * Webhook delivery over node:http(s) (not fetch: undici ignores http.Agent). Every connection goes
 * through the guarded `lookup` and the connected-address check; redirects are never followed;
 * one deadline covers connect, request and response.
 */
export function createHttpDeliverer(options: HttpDelivererOptions): Deliverer {
  const { policy } = options;
  const lookup = guardedLookup(policy, options.resolve ?? systemResolver);
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const agentOptions = { keepAlive: true, maxSockets: options.maxSocketsPerHost ?? 64, lookup };
  const agents = { "http:": new GuardedHttpAgent(policy, agentOptions), "https:": new GuardedHttpsAgent(policy, agentOptions) };
  const userAgent = options.userAgent ?? "svc-webhooks/1";

  function deliver(req: DeliveryRequest): Promise<DeliveryOutcome> {
    const started = performance.now();
    const done = (kind: DeliveryOutcomeKind, statusCode: number | null, error: string | null, retryAfterMs: number | null = null): DeliveryOutcome =>
      ({ kind, statusCode, error, durationMs: Math.round(performance.now() - started), retryAfterMs });
    let u: URL;
    try {
      u = new URL(req.url);
    } catch {
      return Promise.resolve(done("blocked", null, "not a valid URL"));
    }
    if (u.protocol !== "http:" && u.protocol !== "https:") return Promise.resolve(done("blocked", null, `scheme ${u.protocol} is not allowed`));
    if (u.username || u.password) return Promise.resolve(done("blocked", null, "credentials in the URL are not allowed"));
    const host = hostOfUrl(u);
    // Literal addresses never reach `lookup`: check them here (and again on connect).
    if (isIP(host) && !policy.allows(host)) return Promise.resolve(done("blocked", null, new SsrfBlockedError(host, host).message));
    const mod = u.protocol === "https:" ? https : http;
    return new Promise<DeliveryOutcome>((resolve) => {
      let settled = false;
      const finish = (o: DeliveryOutcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(o);
      };
      const request = mod.request(u, {
        method: "POST",
        agent: agents[u.protocol as "http:" | "https:"],
        headers: { ...req.headers, "content-type": "application/json", "content-length": String(Buffer.byteLength(req.body)), "user-agent": userAgent },
      }, (res) => {
        const status = res.statusCode ?? 0;
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          // The answer's body is not used; a receiver that streams forever is cut off.
          if (size > MAX_RESPONSE_BYTES) res.destroy();
        });
        const classify = () => {
          if (status >= 200 && status < 300) return finish(done("delivered", status, null));
          if (status === 410) return finish(done("gone", status, "410 Gone: the endpoint is disabled"));
          if (status >= 300 && status < 400) return finish(done("redirect", status, `redirect to ${String(res.headers.location ?? "?").slice(0, 200)} not followed`));
          return finish(done("http_error", status, `HTTP ${status}`, retryAfterOf(status, res.headers["retry-after"])));
        };
        res.on("end", classify);
        res.on("close", classify);
        res.on("error", classify);
      });
      const timer = setTimeout(() => {
        finish(done("timeout", null, `no answer within ${timeoutMs} ms`));
        request.destroy();
      }, timeoutMs);
      request.on("error", (e: NodeJS.ErrnoException) => {
        if (e instanceof SsrfBlockedError || e.code === "ESSRFBLOCKED") return finish(done("blocked", null, e.message));
        finish(done("network", null, `${e.code ?? "error"}: ${e.message}`.slice(0, 500)));
      });
      request.end(req.body);
    });
  }

  return {
    deliver,
    close() {
      agents["http:"].destroy();
      agents["https:"].destroy();
    },
  };
}

function retryAfterOf(status: number, header: string | undefined): number | null {
  if ((status !== 429 && status !== 503) || !header) return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}
