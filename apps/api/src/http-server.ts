import type { Server } from "node:http";

/**
 * Idle keep-alive connections stay open for 65 s (Node closes them after 5 s by default). Clients
 * and load balancers keep connections for about a minute; a server that closes them sooner races
 * a client reusing one and the request fails with ECONNRESET. The header timeout must exceed it.
 */
export const KEEP_ALIVE_MS = 65_000;

export function tuneHttpServer(server: unknown): void {
  const s = server as Server;
  s.keepAliveTimeout = KEEP_ALIVE_MS;
  s.headersTimeout = KEEP_ALIVE_MS + 1_000;
}
