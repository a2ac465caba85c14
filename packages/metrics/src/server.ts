import { createServer, type Server } from "node:http";
import { z } from "zod";
import { exposition } from "./instruments.js";

/**
 * Where a process without an HTTP API (the worker, each bot) serves its metrics: off unless
 * SVC_METRICS_PORT is set. SVC_METRICS_HOST defaults to loopback; a container sets 0.0.0.0 and
 * keeps the port off its public Service (docs/decisions/0065-metrics-access.md).
 */
export const MetricsEnvSchema = z.object({
  SVC_METRICS_PORT: z.union([z.literal("").transform(() => undefined), z.coerce.number().int().min(0).max(65_535)]).optional(),
  SVC_METRICS_HOST: z.string().min(1).default("127.0.0.1"),
});

export interface MetricsSettings {
  /** undefined: no metrics listener. 0: a random port (tests). */
  readonly port: number | undefined;
  readonly host: string;
}

/** Reads SVC_METRICS_PORT / SVC_METRICS_HOST; a bad value throws an Error naming the variable. */
export function metricsSettingsFromEnv(env: Record<string, string | undefined>): MetricsSettings {
  const r = MetricsEnvSchema.safeParse(env);
  if (!r.success) {
    throw new Error(r.error.issues.map((i) => `  ${i.path.join(".")}: ${i.path[0] === "SVC_METRICS_PORT" ? "must be a port number from 0 to 65535" : i.message}`).join("\n"));
  }
  return { port: r.data.SVC_METRICS_PORT, host: r.data.SVC_METRICS_HOST };
}

export interface MetricsServer {
  /** Where it listens. */
  readonly url: string;
  /** Lets the process exit while the listener is still open. */
  unref(): void;
  close(): Promise<void>;
}

/**
 * A listener that answers `GET /metrics` (Prometheus text format) and nothing else; null when
 * the settings turn it off.
 */
export async function startMetricsServer(settings: MetricsSettings): Promise<MetricsServer | null> {
  if (settings.port === undefined) return null;
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?", 1)[0];
    if (path !== "/metrics") return answer(res, 404, "text/plain; charset=utf-8", "Only /metrics is served here.\n");
    if (req.method !== "GET" && req.method !== "HEAD") return answer(res, 405, "text/plain; charset=utf-8", "Use GET.\n", { allow: "GET, HEAD" });
    exposition().then(
      (m) => answer(res, 200, m.contentType, req.method === "HEAD" ? "" : m.body),
      () => answer(res, 500, "text/plain; charset=utf-8", "Metrics could not be collected.\n"),
    );
  });
  server.keepAliveTimeout = 65_000;
  // Unref'd, the scrapers' keep-alive connections must not hold a stopping process either.
  let unrefd = false;
  server.on("connection", (socket) => {
    if (unrefd) socket.unref();
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(settings.port, settings.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : settings.port;
  const host = settings.host.includes(":") ? `[${settings.host}]` : settings.host;
  return {
    url: `http://${host}:${port}/metrics`,
    unref: () => {
      unrefd = true;
      server.unref();
    },
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

function answer(res: import("node:http").ServerResponse, status: number, contentType: string, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": contentType, "content-length": Buffer.byteLength(body), ...headers });
  res.end(body);
}

/**
 * For a process's entry point: SVC_METRICS_PORT / SVC_METRICS_HOST from `env`, the listener
 * started (unref'd: it never keeps a stopping process alive) or null when off. A bad setting or
 * a port in use ends the process with one line naming the variable, like every other setting.
 */
export async function serveProcessMetrics(env: Record<string, string | undefined>, processName: string): Promise<MetricsServer | null> {
  let server: MetricsServer | null;
  try {
    server = await startMetricsServer(metricsSettingsFromEnv(env));
  } catch (e) {
    const message = (e as Error).message.trim();
    process.stderr.write(`${processName}: ${(e as NodeJS.ErrnoException).code ? `SVC_METRICS_PORT: cannot listen (${message})` : message}\n`);
    process.exit(2);
  }
  server?.unref();
  return server;
}
