import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { scratchDatabase } from "@svc/persistence";
import { NODE_FLAGS, START_ENV } from "../api/procs.js";

export const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
export const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
/** The audit key every API and worker of a benchmark seals records with (server mode requires one). */
export const BENCH_AUDIT_KEY = "the benchmarks' audit key, 32+ characters";
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A throw-away database next to ADMIN_URL. */
export const freshDatabase = (prefix = "svc_bench"): Promise<{ url: string; drop(): Promise<void> }> => scratchDatabase(ADMIN_URL, prefix);

export interface Child {
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;
  output(): string;
  ready(marker: string, ms?: number): Promise<void>;
}

/**
 * An app as production runs it: `node <flags> apps/<app>/dist/main.js` from the repository root,
 * with the V8 flags and environment `npm start` and the image give (tools/bench/api/procs.ts). The workspaces must
 * be built (`build()` of tools/build.mjs; the test suite's global setup builds them).
 */
export function spawnApp(app: "api" | "worker", env: Record<string, string>): Child {
  const entry = `apps/${app}/dist/main.js`;
  const child = spawn(process.execPath, [...NODE_FLAGS, entry], { cwd: ROOT, env: { ...process.env, ...START_ENV, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout?.on("data", (d: Buffer) => (out = (out + d.toString()).slice(-20_000)));
  child.stderr?.on("data", (d: Buffer) => (out = (out + d.toString()).slice(-20_000)));
  const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
  return {
    child, exited, output: () => out,
    async ready(marker, ms = 120_000) {
      const end = Date.now() + ms;
      while (!out.includes(marker)) {
        if (child.exitCode !== null) throw new Error(`${entry} exited: ${out}`);
        if (Date.now() > end) throw new Error(`${entry} did not start: ${out}`);
        await sleep(50);
      }
    },
  };
}

export interface Receiver {
  readonly url: string;
  /** job_id → first arrival (ms, performance.now()). */
  readonly arrivals: Map<string, number>;
  count: number;
  readonly samples: { headers: Record<string, string>; body: string }[];
  close(): Promise<void>;
}

/** The integrator's endpoint: answers 204, notes when each job's webhook first arrived. */
export async function startReceiver(sampleRate = 0.05): Promise<Receiver> {
  const arrivals = new Map<string, number>();
  const samples: { headers: Record<string, string>; body: string }[] = [];
  const r: Receiver = { url: "", arrivals, count: 0, samples, close: async () => {} };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const at = performance.now();
      const body = Buffer.concat(chunks).toString();
      r.count++;
      try {
        const id = (JSON.parse(body) as { data: { job_id: string } }).data.job_id;
        if (!arrivals.has(id)) arrivals.set(id, at);
      } catch {
        // counted, not timed
      }
      if (samples.length < 200 && Math.random() < sampleRate) samples.push({ headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])), body });
      res.statusCode = 204;
      res.end();
    });
  });
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((res) => server.listen(0, "127.0.0.1", res));
  (r as { url: string }).url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  r.close = () => new Promise((res) => (server.closeAllConnections(), server.close(() => res())));
  return r;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}

/** CPU seconds (user + system) used so far by a process, from /proc (Linux); NaN elsewhere. */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

/** CPU seconds of every PostgreSQL server process on this machine (the benchmark's database server is local). */
export function postgresCpuSeconds(): number {
  let total = 0;
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (readFileSync(`/proc/${d}/comm`, "utf8").trim() === "postgres") total += cpuSeconds(Number(d));
    } catch {
      // gone meanwhile
    }
  }
  return total;
}
