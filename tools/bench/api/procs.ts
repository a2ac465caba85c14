// Child processes for the servers under test, and what /proc says about them.
import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";

export interface Server {
  readonly pid: number;
  readonly port: number;
  readonly url: string;
  readonly proc: ChildProcess;
  /** performance.now() when the process was spawned (a CPU profile's clock starts about then). */
  readonly spawnedAt: number;
  /** SIGTERM, wait for a clean exit (a CPU profile is written then); SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<number | null>;
  /** The last lines the child wrote (for error messages). */
  output(): string;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.unref();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const addr = s.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      s.close(() => resolve(port));
    });
  });
}

/** The V8 flags `npm start` and the container image give the API (package.json, Dockerfile). */
export const NODE_FLAGS = ["--max-semi-space-size=32"];
/** The environment they give it too: glibc's trim threshold (decision 0099). */
export const START_ENV: Record<string, string> = { MALLOC_TRIM_THRESHOLD_: "131072" };

/**
 * `node [--cpu-prof …] <script>` in its own process on 127.0.0.1, with `env` on top of ours;
 * resolves once GET /healthz answers 200. A compiled `.js` script runs as it is (as production
 * runs it); a `.ts` one under `--import tsx`.
 */
export async function startServer(script: string, env: Record<string, string>, options: { cpuProfDir?: string; startTimeoutMs?: number } = {}): Promise<Server> {
  const port = await freePort();
  // V8's flags and the environment `npm start` and the image run the API with (decisions 0095, 0099); the baseline gets the same.
  const args = [...NODE_FLAGS, ...(options.cpuProfDir ? ["--cpu-prof", `--cpu-prof-dir=${options.cpuProfDir}`] : []), ...(/\.[cm]?ts$/.test(script) ? ["--import", "tsx"] : []), script];
  const spawnedAt = performance.now();
  const proc = spawn(process.execPath, args, {
    // Server mode needs an audit key (replicas share it); harmless on the embedded default.
    env: { ...process.env, ...START_ENV, HOST: "127.0.0.1", LOG_LEVEL: "silent", SVC_AUDIT_KEY: "the benchmarks' audit key, 32+ characters", ...env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let tail = "";
  const keep = (b: Buffer) => {
    tail = (tail + b.toString("utf8")).slice(-4000);
  };
  proc.stdout?.on("data", keep);
  proc.stderr?.on("data", keep);
  const exited = new Promise<number | null>((resolve) => proc.once("exit", (code) => resolve(code)));
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.startTimeoutMs ?? 120_000);
  for (;;) {
    if (gone) throw new Error(`${script} exited during start-up:\n${tail}`);
    if (Date.now() > deadline) {
      proc.kill("SIGKILL");
      throw new Error(`${script} did not answer /healthz in time:\n${tail}`);
    }
    try {
      const r = await fetch(`${url}/healthz`);
      if (r.status === 200) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    pid: proc.pid as number,
    port,
    spawnedAt,
    url,
    proc,
    output: () => tail,
    async stop(graceMs = 60_000) {
      if (gone) return exited;
      proc.kill("SIGTERM");
      const timer = setTimeout(() => proc.kill("SIGKILL"), graceMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/** A `kB` line of /proc/<pid>/status in MiB (VmHWM: peak resident set; VmRSS: current). */
export function procStatusMb(pid: number, field: "VmHWM" | "VmRSS"): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) / 1024 : Number.NaN;
}

const TICKS = 100; // USER_HZ on Linux

/** User + system CPU seconds used so far by one process (all its threads). */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return 0;
  }
}

/** User + system CPU seconds of every live `postgres` process (backends, WAL writer, checkpointer…), by pid. */
export function postgresCpuSeconds(): Map<number, number> {
  const out = new Map<number, number>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      if (comm !== "postgres") continue;
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      out.set(Number(name), (Number(fields[11]) + Number(fields[12])) / TICKS);
    } catch {
      // the process ended meanwhile
    }
  }
  return out;
}

/** CPU seconds postgres processes alive at `after` used since `before` (backends that ended meanwhile are not counted). */
function postgresDelta(before: Map<number, number>, after: Map<number, number>): number {
  let d = 0;
  for (const [pid, cpu] of after) d += cpu - (before.get(pid) ?? 0);
  return d;
}

/** Busy CPU seconds of the whole machine so far (all processes, /proc/stat). */
export function machineBusySeconds(): number {
  const f = readFileSync("/proc/stat", "utf8").split("\n", 1)[0]?.trim().split(/\s+/).slice(1).map(Number) ?? [];
  const total = f.slice(0, 8).reduce((a, b) => a + b, 0);
  const idle = (f[3] ?? 0) + (f[4] ?? 0);
  return (total - idle) / TICKS;
}

/**
 * CPU used while `run` runs, in cores (CPU seconds / wall seconds): the server child, PostgreSQL
 * (backends that ended during the run are not counted), this process (autocannon), and everything
 * else on the machine (other work running meanwhile: the figures are then not comparable).
 */
export async function withCpu<T>(serverPid: number, run: () => Promise<T>): Promise<{ value: T; cpu: { server: number; postgres: number; bench: number; other: number } }> {
  const t0 = performance.now();
  const m0 = machineBusySeconds();
  const s0 = cpuSeconds(serverPid);
  const p0 = postgresCpuSeconds();
  const b0 = process.cpuUsage();
  const value = await run();
  const wall = (performance.now() - t0) / 1000;
  const b = process.cpuUsage(b0);
  const server = (cpuSeconds(serverPid) - s0) / wall;
  const postgres = postgresDelta(p0, postgresCpuSeconds()) / wall;
  const bench = (b.user + b.system) / 1e6 / wall;
  const machine = (machineBusySeconds() - m0) / wall;
  return { value, cpu: { server, postgres, bench, other: Math.max(0, machine - server - postgres - bench) } };
}
