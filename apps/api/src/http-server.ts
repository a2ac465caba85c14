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
 * A drain keeps accepting until no connection has come for this long (at most ACCEPT_MAX_MS):
 * closing the listening socket resets the connections the kernel has queued for it but the
 * event loop has not accepted yet, and their clients have already sent their requests.
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
  accepted: number;
  readonly inFlight: Set<ServerResponse>;
  readonly connections: Map<Socket, ConnectionState>;
}

const states = new WeakMap<Server, DrainState>();

export function tuneHttpServer(server: unknown): void {
  const s = server as Server;
  s.keepAliveTimeout = KEEP_ALIVE_MS;
  s.headersTimeout = KEEP_ALIVE_MS + 1_000;
  const state: DrainState = { draining: false, accepted: 0, inFlight: new Set(), connections: new Map() };
  states.set(s, state);
  s.on("connection", (socket: Socket) => {
    state.accepted++;
    state.connections.set(socket, { acceptedAt: Date.now(), busy: false, served: 0 });
    socket.once("close", () => state.connections.delete(socket));
  });
  // Ahead of the app's listener: every response in flight is known, so a drain can mark it.
  s.prependListener("request", (req: IncomingMessage, res: ServerResponse) => {
    const conn = state.connections.get(req.socket as Socket);
    if (conn) conn.busy = true;
    state.inFlight.add(res);
    res.once("close", () => {
      state.inFlight.delete(res);
      if (conn) {
        conn.busy = false;
        conn.served++;
      }
    });
    if (state.draining) res.setHeader("connection", "close");
  });
  s.on("clientError", (err: NodeJS.ErrnoException, socket: Duplex) => answerClientError(err, socket));
}

/**
 * Stops the server gracefully: it keeps accepting until connections stop coming (ACCEPT_QUIET_MS),
 * then refuses new ones ("connection refused"); every request accepted runs to its end and is
 * answered, with `Connection: close`; a
 * connection accepted just before whose request is still on its way gets it answered too; idle
 * keep-alive connections are closed. After `graceMs` whatever is still open is cut.
 * Resolves true when everything finished in time.
 */
export function drainHttpServer(server: unknown, graceMs: number): Promise<boolean> {
  const s = server as Server;
  const state = states.get(s) ?? { draining: false, accepted: 0, inFlight: new Set<ServerResponse>(), connections: new Map<Socket, ConnectionState>() };
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
    const sweeper = setInterval(sweep, 25);
    const force = setTimeout(() => {
      inTime = false;
      s.closeAllConnections();
    }, graceMs);
    const started = Date.now();
    let seen = state.accepted;
    let quietSince = started;
    // Decided in the check phase, right after a poll phase has accepted whatever was queued.
    const maybeStopAccepting = () => {
      const now = Date.now();
      if (state.accepted !== seen) {
        seen = state.accepted;
        quietSince = now;
      }
      if (now - quietSince < ACCEPT_QUIET_MS && now - started < Math.min(ACCEPT_MAX_MS, graceMs / 2)) {
        setTimeout(() => setImmediate(maybeStopAccepting), 10);
        return;
      }
      // net.Server's close, not http.Server's: the latter also drops every connection without a
      // request in progress at once, including one whose request has arrived but is not read yet.
      net.Server.prototype.close.call(s, () => {
        clearInterval(sweeper);
        clearTimeout(force);
        resolve(inTime);
      });
    };
    setImmediate(maybeStopAccepting);
    sweep();
  });
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
