import http, { type IncomingMessage, type Server, type ServerResponse } from "node:http";
import net, { type Socket } from "node:net";
import type { Duplex } from "node:stream";

/**
 * Idle keep-alive connections stay open for 65 s (Node closes them after 5 s by default). Clients
 * and load balancers keep connections for about a minute; a server that closes them sooner races
 * a client reusing one and the request fails with ECONNRESET. The header timeout must exceed it.
 */
export const KEEP_ALIVE_MS = 65_000;

/** A connection accepted but silent this long during a drain is closed (its client sent nothing). */
const SILENT_CONNECTION_MS = 2_000;
/**
 * A drain serves new requests until none has come for this long (at most ACCEPT_MAX_MS); after
 * that, new requests are answered 503 (nothing done, safe to retry elsewhere) until the listening
 * socket closes.
 */
const ACCEPT_QUIET_MS = 250;
const ACCEPT_MAX_MS = 5_000;

interface ConnectionState {
  readonly acceptedAt: number;
  busy: boolean;
  served: number;
}

interface DrainState {
  draining: boolean;
  /** New requests are answered 503 instead of run. */
  refusing: boolean;
  accepted: number;
  readonly inFlight: Set<ServerResponse>;
  readonly connections: Map<Socket, ConnectionState>;
}

const states = new WeakMap<Server, DrainState>();

const newState = (): DrainState => ({ draining: false, refusing: false, accepted: 0, inFlight: new Set(), connections: new Map() });

/** Call once the app's request listener is attached (after `serve`). */
export function tuneHttpServer(server: unknown): void {
  const s = server as Server;
  s.keepAliveTimeout = KEEP_ALIVE_MS;
  s.headersTimeout = KEEP_ALIVE_MS + 1_000;
  const state = newState();
  states.set(s, state);
  s.on("connection", (socket: Socket) => {
    state.accepted++;
    state.connections.set(socket, { acceptedAt: Date.now(), busy: false, served: 0 });
    socket.once("close", () => state.connections.delete(socket));
  });
  // In front of the app's listeners: every response in flight is known, so a drain can mark it,
  // and once a drain refuses new work the app never sees the request.
  const app = s.listeners("request") as ((req: IncomingMessage, res: ServerResponse) => void)[];
  s.removeAllListeners("request");
  s.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const conn = state.connections.get(req.socket as Socket);
    if (conn) conn.busy = true;
    res.once("close", () => {
      state.inFlight.delete(res);
      if (conn) {
        conn.busy = false;
        conn.served++;
      }
    });
    if (state.refusing) {
      refuseShuttingDown(req, res);
      return;
    }
    state.inFlight.add(res);
    if (state.draining) res.setHeader("connection", "close");
    for (const listener of app) listener.call(s, req, res);
  });
  s.on("clientError", (err: NodeJS.ErrnoException, socket: Duplex) => answerClientError(err, socket));
}

/**
 * Stops the server gracefully. It keeps serving while requests keep coming (until none has come
 * for ACCEPT_QUIET_MS, at most ACCEPT_MAX_MS), then answers new ones 503 `server.shutting_down`
 * (Retry-After: 1; nothing was done). Every request it took runs to its end and is answered, with
 * `Connection: close`; a connection accepted whose request is still on its way gets it answered
 * too; idle keep-alive connections are closed. The listening socket closes only when nothing is
 * left in flight, so the close happens while the event loop is idle: closing it resets the
 * connections the kernel has queued but the loop has not accepted yet, and a loop busy with
 * requests would leave a wide window for that. After `graceMs` whatever is still open is cut.
 * Resolves true when everything finished in time.
 */
export function drainHttpServer(server: unknown, graceMs: number): Promise<boolean> {
  const s = server as Server;
  const state = states.get(s) ?? newState();
  state.draining = true;
  for (const res of state.inFlight) if (!res.headersSent) res.setHeader("connection", "close");
  return new Promise((resolve) => {
    let inTime = true;
    // Closes the connections with nothing in flight: idle keep-alive ones at once, a fresh one
    // once it has stayed silent a while (its request may be in the socket buffer, unread yet).
    const sweep = () => {
      const now = Date.now();
      for (const [socket, c] of state.connections) {
        if (!c.busy && (c.served > 0 || now - c.acceptedAt >= SILENT_CONNECTION_MS)) socket.destroy();
      }
    };
    // In the check phase, right after a poll phase has read what the sockets hold: a request that
    // arrived while the event loop was busy is parsed (its connection marked busy) before the
    // sweep could take its connection for a silent one.
    const sweeper = setInterval(() => setImmediate(sweep), 25);
    const force = setTimeout(() => {
      inTime = false;
      s.closeAllConnections();
    }, graceMs);
    const started = Date.now();
    let seen = state.accepted;
    let quietSince = started;
    // Decided in the check phase, right after a poll phase has accepted whatever was queued.
    const next = (step: () => void) => setTimeout(() => setImmediate(step), 10);
    const maybeRefuse = () => {
      const now = Date.now();
      if (state.accepted !== seen) {
        seen = state.accepted;
        quietSince = now;
      }
      if (now - quietSince < ACCEPT_QUIET_MS && now - started < Math.min(ACCEPT_MAX_MS, graceMs / 2)) return next(maybeRefuse);
      state.refusing = true;
      next(maybeClose);
    };
    const maybeClose = () => {
      if (state.inFlight.size > 0 && inTime) return next(maybeClose);
      // net.Server's close, not http.Server's: the latter also drops every connection without a
      // request in progress at once, including one whose request has arrived but is not read yet.
      net.Server.prototype.close.call(s, () => {
        clearInterval(sweeper);
        clearTimeout(force);
        resolve(inTime);
      });
    };
    setImmediate(maybeRefuse);
    setImmediate(sweep);
  });
}

/**
 * Answers 503 once the request's body has been read: closing a socket with unread data in it
 * sends a reset, and the client would lose the answer that nothing was done.
 */
function refuseShuttingDown(req: IncomingMessage, res: ServerResponse): void {
  req.once("end", () => answerShuttingDown(res));
  req.once("error", () => res.destroy());
  req.resume();
}

function answerShuttingDown(res: ServerResponse): void {
  const body = JSON.stringify({
    type: "https://svc.dev/problems/server.shutting_down", title: "Shutting down", status: 503,
    detail: "This server is shutting down and did not run the request; retry it.", code: "server.shutting_down", request_id: "unknown", retryable: true,
  });
  res.writeHead(503, { "content-type": "application/problem+json", "content-length": Buffer.byteLength(body), "retry-after": "1", connection: "close" });
  res.end(body);
}

/**
 * A request Node's parser refused before it reached the app: answered as problem+json like every
 * other error (Node would write a bare status line). The common one is a request line or headers
 * over `maxHeaderSize` (16 KB): a very long URL.
 */
function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  const pending = (socket as { _httpMessage?: ServerResponse | null })._httpMessage;
  if (err.code === "ECONNRESET" || !socket.writable || (pending && pending.headersSent)) {
    socket.destroy();
    return;
  }
  const limit = http.maxHeaderSize;
  const [status, code, title, detail] =
    err.code === "HPE_HEADER_OVERFLOW"
      ? [431, "request.header_too_large", "Request header fields too large", `The request line (the URL) and headers must be at most ${limit} bytes together.`]
      : err.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? [408, "request.timeout", "Request timeout", "The request headers did not arrive in time."]
        : [400, "request.malformed", "Bad request", "The request is not valid HTTP/1.1."];
  const body = JSON.stringify({ type: `https://svc.dev/problems/${code}`, title, status, detail, code, request_id: "unknown", retryable: false });
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? ""}\r\ncontent-type: application/problem+json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}
