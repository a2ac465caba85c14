/**
 * Parts the soak and fault scenarios share: a private PostgreSQL server (this machine's binaries,
 * its own data directory and port, so it can be stopped without touching anyone else's), a TCP
 * proxy that can stop forwarding, the API as a real process, and a closed-loop load generator.
 * Everything listens on and talks to 127.0.0.1 only.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { apiKeyFromSecret } from "@svc/server-ports";
import { sleep, spawnApp, type Child } from "../bench/async/support.js";

export { sleep };
export const SOAK_AUDIT_KEY = "the soak scenarios' audit key, 32+ characters";
export const SOAK_BOOTSTRAP_SECRET = "the soak scenarios' bootstrap secret, 32+ chars";
/** The admin key the API derives from SOAK_BOOTSTRAP_SECRET. */
export const SOAK_KEY = apiKeyFromSecret(SOAK_BOOTSTRAP_SECRET);

/** The PostgreSQL server binaries (initdb, pg_ctl) of this machine, newest version; null when absent. */
export function postgresBinaries(): string | null {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).filter((v) => existsSync(join(root, v, "bin", "pg_ctl"))).sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], "bin") : null;
}

export async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

export interface PrivatePostgres {
  readonly port: number;
  readonly url: string;
  start(): void;
  /** `pg_ctl stop -m immediate` (a crash, no checkpoint) or `fast` (clean). */
  stop(mode?: "immediate" | "fast"): void;
  destroy(): void;
}

/**
 * initdb + pg_ctl on a fresh directory. PostgreSQL refuses to run as root: then the server runs
 * as `nobody` (the directory is handed to it).
 */
export async function privatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBinaries();
  if (!bin) throw new Error("no PostgreSQL server binaries under /usr/lib/postgresql");
  const dir = mkdtempSync(join(tmpdir(), "svc-soak-pg-"));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) chownSync(dir, Number(execFileSync("id", ["-u", "nobody"]).toString().trim()), Number(execFileSync("id", ["-g", "nobody"]).toString().trim()));
  const run = (cmd: string, args: string[]) => {
    const r = asRoot ? spawnSync("runuser", ["-u", "nobody", "--", join(bin, cmd), ...args], { encoding: "utf8" }) : spawnSync(join(bin, cmd), args, { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`${cmd} failed: ${r.stderr || r.stdout}`);
  };
  run("initdb", ["-D", join(dir, "data"), "-U", "postgres", "--auth=trust", "-N"]);
  const port = await freePort();
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100`;
  const pg: PrivatePostgres = {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: () => run("pg_ctl", ["-D", join(dir, "data"), "-o", opts, "-l", join(dir, "log"), "-w", "start"]),
    stop: (mode = "immediate") => run("pg_ctl", ["-D", join(dir, "data"), "-m", mode, "-w", "stop"]),
    destroy: () => {
      try {
        pg.stop("immediate");
      } catch {
        // not running
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  pg.start();
  return pg;
}

/** A TCP proxy on 127.0.0.1 to `port`; `blackhole()` stops forwarding both ways (no FIN, no RST), `restore()` resumes. */
export async function tcpProxy(port: number): Promise<{ port: number; blackhole(): void; restore(): void; close(): Promise<void> }> {
  let holed = false;
  const pairs = new Set<[net.Socket, net.Socket]>();
  const server = net.createServer((client) => {
    const upstream = net.connect(port, "127.0.0.1");
    const pair: [net.Socket, net.Socket] = [client, upstream];
    pairs.add(pair);
    // Paused sockets buffer (in the kernel, then the peer's window fills): nothing arrives, nothing is refused.
    client.pipe(upstream);
    upstream.pipe(client);
    // After pipe(), which resumes its source.
    if (holed) {
      client.pause();
      upstream.pause();
    }
    const end = () => (client.destroy(), upstream.destroy(), pairs.delete(pair));
    client.on("error", end).on("close", end);
    upstream.on("error", end).on("close", end);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    port: (server.address() as net.AddressInfo).port,
    blackhole: () => {
      holed = true;
      for (const [a, b] of pairs) {
        a.pause();
        b.pause();
      }
    },
    restore: () => {
      holed = false;
      for (const [a, b] of pairs) {
        a.resume();
        b.resume();
      }
    },
    close: () => new Promise<void>((r) => {
      for (const [a, b] of pairs) {
        a.destroy();
        b.destroy();
      }
      server.close(() => r());
    }),
  };
}

export interface Api extends Child {
  readonly port: number;
  readonly pid: number;
}

/** The compiled API (`apps/api/dist/main.js`) as its own process on PostgreSQL (`url`) or PGlite (`dataDir`). */
export async function startApi(db: { url: string } | { dataDir: string }, extraEnv: Record<string, string> = {}): Promise<Api> {
  const env: Record<string, string> = { PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info", SVC_BOOTSTRAP_KEY: SOAK_BOOTSTRAP_SECRET, SVC_AUDIT_KEY: SOAK_AUDIT_KEY, SVC_WEBHOOK_ALLOWED_CIDRS: "127.0.0.1/32", ...extraEnv };
  if ("url" in db) env.DATABASE_URL = db.url;
  else env.SVC_DATA_DIR = db.dataDir;
  const c = spawnApp("api", env);
  await c.ready("svc API listening", 180_000);
  const m = /"port":(\d+),[^\n]*"svc API listening"/.exec(c.output());
  if (!m) throw new Error(`no port in: ${c.output()}`);
  return { ...c, port: Number(m[1]), pid: c.child.pid as number };
}

export async function stopApi(api: Child, signal: NodeJS.Signals = "SIGTERM"): Promise<number | null> {
  if (api.child.exitCode !== null) return api.child.exitCode;
  api.child.kill(signal);
  return api.exited;
}

export interface Answer {
  readonly status: number;
  readonly body: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly ms: number;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

/** One request to the API; status 0 when the connection failed (refused, reset, timed out). */
export function request(port: number, method: string, path: string, body?: unknown, headers: Record<string, string> = {}, timeoutMs = 60_000): Promise<Answer> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const req = http.request({ host: "127.0.0.1", port, path, method, agent, timeout: timeoutMs, headers: { "x-api-key": SOAK_KEY, ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers } }, (res) => {
      let data = "";
      res.setEncoding("utf8").on("data", (d: string) => (data += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: data, headers: res.headers, ms: performance.now() - t0 }));
      res.on("error", () => resolve({ status: 0, body: "", headers: {}, ms: performance.now() - t0 }));
    });
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", (e) => resolve({ status: 0, body: String(e), headers: {}, ms: performance.now() - t0 }));
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/**
 * The code of `exportClient`'s thread (plain JavaScript, so it runs the same under tsx and node):
 * GET requests whose bodies are counted, not kept: only their first and last bytes come back.
 */
const EXPORT_CLIENT = `
const { parentPort } = require("node:worker_threads");
const http = require("node:http");
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
const ENDS = 64;
parentPort.on("message", ({ id, port, path, key, timeoutMs }) => {
  const t0 = performance.now();
  let bytes = 0, head = null, tail = Buffer.alloc(0), sent = false;
  const done = (status, headers, body) => {
    if (sent) return;
    sent = true;
    parentPort.postMessage({ id, status, bytes, headers, ms: performance.now() - t0,
      body: body ?? (bytes <= ENDS ? tail.toString("utf8") : (head ? head.toString("utf8") : "") + "\u2026" + tail.toString("utf8")) });
  };
  const req = http.request({ host: "127.0.0.1", port, path, method: "GET", agent, headers: { "x-api-key": key } }, (res) => {
    res.on("data", (d) => {
      bytes += d.length;
      if (!head || head.length < ENDS) head = Buffer.concat([head ?? Buffer.alloc(0), d.subarray(0, ENDS - (head ? head.length : 0))]);
      tail = Buffer.from(Buffer.concat([tail, d.subarray(Math.max(0, d.length - ENDS))]).subarray(-ENDS));
    });
    res.on("end", () => done(res.statusCode || 0, res.headers));
    res.on("error", () => done(0, {}, ""));
    // A connection dropped before the end: no 'end', and not always an 'error'.
    res.on("close", () => done(res.complete ? res.statusCode || 0 : 0, res.headers, res.complete ? undefined : ""));
  });
  // A limit on the whole request, not only on a pause between chunks: an export that trickles fails too.
  const timer = setTimeout(() => req.destroy(new Error("timeout")), timeoutMs);
  req.on("close", () => clearTimeout(timer));
  req.on("error", (e) => done(0, {}, String(e)));
  req.end();
});`;

/**
 * GET requests made and read on a thread of their own, for answers of megabytes (exports). Read
 * on the load generator's own thread, such bodies cost it event-loop time and garbage
 * collections, and the latency it measures for every other answer in flight meanwhile would
 * include those pauses: the server would be charged for the client's work. `body` holds the
 * answer's first and last 64 bytes (joined by "…" when longer), enough to see that it is whole.
 */
export function exportClient(): { get(port: number, path: string, timeoutMs?: number): Promise<Answer & { readonly bytes: number }>; close(): Promise<void> } {
  type Reply = Answer & { readonly bytes: number };
  const w = new Worker(EXPORT_CLIENT, { eval: true });
  const waiting = new Map<number, (a: Reply) => void>();
  let next = 0;
  /** Why the thread is gone (then every request, waiting or new, fails at once with status 0). */
  let gone: string | null = null;
  const failAll = (why: string): void => {
    gone ??= why;
    for (const r of waiting.values()) r({ status: 0, body: gone, bytes: 0, headers: {}, ms: 0 });
    waiting.clear();
  };
  w.on("message", (m: Reply & { id: number }) => {
    const { id, ...a } = m;
    waiting.get(id)?.(a);
    waiting.delete(id);
  });
  w.on("error", (e) => failAll(`the export client's thread failed: ${String(e)}`));
  w.on("exit", (code) => failAll(`the export client's thread stopped (exit code ${code})`));
  return {
    get: (port, path, timeoutMs = 60_000) =>
      new Promise((resolve) => {
        if (gone !== null) return resolve({ status: 0, body: gone, bytes: 0, headers: {}, ms: 0 });
        const id = next++;
        waiting.set(id, resolve);
        w.postMessage({ id, port, path, key: SOAK_KEY, timeoutMs });
      }),
    close: async () => {
      await w.terminate();
      failAll("the export client was closed");
    },
  };
}

/** `concurrency` loops, each sending `next(i)` back to back, until `stop()`; every answer goes to `onAnswer`. */
export function closedLoop(concurrency: number, send: (n: number) => Promise<void>): { stop(): Promise<void> } {
  let running = true;
  let n = 0;
  const loops = Array.from({ length: concurrency }, async () => {
    while (running) await send(n++);
  });
  return {
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}

/** Resident set size of a process in MB (Linux /proc). */
export function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}

/** Least-squares slope of (x, y) points: a trend per unit of x. */
export function slope(points: readonly [number, number][]): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const num = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const den = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return den === 0 ? 0 : num / den;
}

export const line = (k: string, v: string | number | boolean) => console.log(`${k.padEnd(48)} ${v}`);
