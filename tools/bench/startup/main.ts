// Start-up time and idle memory of the API as deployed: `node apps/api/dist/main.js` on the
// embedded default (PGlite) in a new temporary data directory.
//
//   npx tsx tools/bench/startup/main.ts [--idle=10] [--npm-start] [--root=<checkout>]
//
// Builds first (tools/build.mjs, timed), then starts the API twice on the same data directory:
// the first start creates the database, the second reopens it. For each: milliseconds from spawn
// to the first /readyz 200, and the resident set (VmRSS, and the peak VmHWM) after --idle seconds
// without requests; and the CPU time the API process used until ready (steadier than the wall
// time on a shared machine). --npm-start runs `npm start` instead (the prestart build included in the
// time; the memory is the API process's, read through the pid it logs). --root measures another
// checkout (a fresh clone).
//
// Each reading also says where the memory is (memory-report.mjs, preloaded through NODE_OPTIONS
// and read on SIGUSR2: mapped files, V8's heap, WebAssembly memory, other native). Then the
// benchmark screens one entity of each kind (with the admin key the first start prints), reports
// the first check's latency and reads the memory again --idle seconds later: parts loaded on first
// use show there. Last, the targets of issue 17 with PASS or FAIL.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const args = process.argv.slice(2);
const opt = (name: string): string | undefined => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const IDLE_S = Number(opt("idle") ?? 10);
const NPM_START = args.includes("--npm-start");
const ROOT = resolve(opt("root") ?? fileURLToPath(new URL("../../../", import.meta.url)));

const log = (m: string) => process.stdout.write(`${m}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function memoryOf(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN);
  return { rss: kb("VmRSS") / 1024, hwm: kb("VmHWM") / 1024 };
}

/** CPU seconds (user + system) the process has used: on a shared machine a steadier figure than the wall time. */
function cpuOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime (fields 14 and 15) in ticks of 1/100 s
}

async function build(): Promise<number> {
  const t = performance.now();
  await new Promise<void>((ok, fail) => {
    const p = spawn(process.execPath, [join(ROOT, "tools", "build.mjs")], { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] });
    p.once("exit", (code) => (code === 0 ? ok() : fail(new Error(`build exited with ${code}`))));
  });
  return performance.now() - t;
}

/** Where the API's resident memory is (tools/bench/startup/memory-report.mjs), in MB. */
interface Memory {
  rss: number;
  files: number;
  v8Heap: number;
  heapUsed: number;
  wasmMemory: number;
  other: number;
  external: number;
  arrayBuffers: number;
}

interface Started {
  readyMs: number;
  cpuS: number;
  rss: number;
  hwm: number;
  idle: Memory;
  /** After the checks: how long the first took (ms), the next ones' median, and the memory IDLE_S later. */
  checks?: { firstMs: number; nextMs: number; rss: number; hwm: number; memory: Memory };
  /** The admin key the first start printed (stderr, once), for the checks of the second. */
  key?: string;
}

/** Entities of each kind, screened once each after the first idle reading. */
const CHECKS = ["paypa1-login.com", "https://bit.ly/3xYz", "support@paypal-secure.help", "+14155550123", "0x52908400098527886E0F7030069857D2E4169EE7", "192.0.2.10", "x:@elon_giveaway", "example.org"];

/** This benchmark's own preload, so that another checkout (--root) is measured the same way. */
const PRELOAD = new URL("./memory-report.mjs", import.meta.url);

async function startOnce(dataDir: string, key: string | undefined): Promise<Started> {
  // NODE_OPTIONS reaches the API through npm too; the preload only answers SIGUSR2.
  const env: NodeJS.ProcessEnv = { ...process.env, SVC_DATA_DIR: dataDir, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info", NODE_OPTIONS: `--import=${PRELOAD.href}` };
  delete env.DATABASE_URL;
  const t0 = performance.now();
  const child: ChildProcess = NPM_START
    ? spawn("npm", ["start", "--silent"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"], detached: true })
    : spawn(process.execPath, [join(ROOT, "apps", "api", "dist", "main.js")], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout?.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (err += d.toString()));
  let exited: number | null | undefined;
  child.once("exit", (c) => (exited = c));
  const memoryReport = async (pid: number): Promise<Memory> => {
    const before = err.length;
    process.kill(pid, "SIGUSR2");
    for (;;) {
      const line = /svc-memory (\{.*\})\n/.exec(err.slice(before));
      if (line?.[1]) return JSON.parse(line[1]) as Memory;
      if (exited !== undefined) throw new Error(`the API exited with ${exited}:\n${out}${err}`);
      await sleep(20);
    }
  };
  try {
    let listening: { port: number; pid: number } | undefined;
    while (!listening) {
      if (exited !== undefined) throw new Error(`the API exited with ${exited}:\n${out}${err}`);
      for (const line of out.split("\n")) {
        if (!line.startsWith("{")) continue;
        const e = JSON.parse(line) as { msg?: string; port?: number; pid?: number };
        if (e.msg === "svc API listening" && e.port && e.pid) listening = { port: e.port, pid: e.pid };
      }
      if (!listening) await sleep(20);
    }
    const base = `http://127.0.0.1:${listening.port}`;
    for (;;) {
      const r = await fetch(`${base}/readyz`).catch(() => null);
      if (r?.status === 200) break;
      await sleep(20);
    }
    const readyMs = performance.now() - t0;
    const cpuS = cpuOf(listening.pid);
    await sleep(IDLE_S * 1000);
    const started: Started = { readyMs, cpuS, ...memoryOf(listening.pid), idle: await memoryReport(listening.pid) };
    started.key = key ?? /Admin API key[^\n]*\n\n {2}(\S+)/.exec(err)?.[1];
    if (started.key) {
      const times: number[] = [];
      for (const value of CHECKS) {
        const t = performance.now();
        const r = await fetch(`${base}/v1/screen`, { method: "POST", headers: { "content-type": "application/json", "x-api-key": started.key }, body: JSON.stringify({ entity_value: value }) });
        await r.arrayBuffer();
        times.push(performance.now() - t);
        if (r.status !== 200) throw new Error(`POST /v1/screen ${value}: ${r.status}`);
      }
      await sleep(IDLE_S * 1000);
      const rest = times.slice(1).sort((a, b) => a - b);
      started.checks = { firstMs: times[0] as number, nextMs: rest[Math.floor(rest.length / 2)] as number, ...memoryOf(listening.pid), memory: await memoryReport(listening.pid) };
    }
    return started;
  } finally {
    if (NPM_START && child.pid) process.kill(-child.pid, "SIGTERM");
    else child.kill("SIGTERM");
    if (exited === undefined) await new Promise((r) => child.once("exit", r));
  }
}

const breakdown = (m: Memory): string =>
  `files ${m.files.toFixed(0)}, V8 heap ${m.v8Heap.toFixed(0)} (used ${m.heapUsed.toFixed(0)}), WebAssembly memory ${m.wasmMemory.toFixed(0)}, other native ${m.other.toFixed(0)} MB`;

const dataDir = mkdtempSync(join(tmpdir(), "svc-bench-startup-"));
const TARGET_READY_MS = 5_000;
const TARGET_RSS_MB = 150;
try {
  log(`load average ${loadavg().map((l) => l.toFixed(1)).join(" ")}; root ${ROOT}; ${NPM_START ? "npm start" : "node apps/api/dist/main.js"}; idle ${IDLE_S} s; node ${process.version}`);
  if (!NPM_START) log(`build (tools/build.mjs): ${(await build()).toFixed(0)} ms`);
  let key: string | undefined;
  const results: Started[] = [];
  for (const which of ["first start (new database)", "second start (same data directory)"]) {
    const s = await startOnce(dataDir, key);
    key ??= s.key;
    results.push(s);
    log(`${which}: ready in ${s.readyMs.toFixed(0)} ms (API process CPU ${s.cpuS.toFixed(2)} s); after ${IDLE_S} s idle RSS ${s.rss.toFixed(0)} MB (peak ${s.hwm.toFixed(0)} MB)`);
    log(`  idle: ${breakdown(s.idle)}`);
    if (s.checks) {
      log(`  ${CHECKS.length} checks (one of each kind): first ${s.checks.firstMs.toFixed(0)} ms, then median ${s.checks.nextMs.toFixed(1)} ms; ${IDLE_S} s later RSS ${s.checks.rss.toFixed(0)} MB (peak ${s.checks.hwm.toFixed(0)} MB)`);
      log(`  after checks: ${breakdown(s.checks.memory)}`);
    } else log("  no admin key printed: checks skipped");
  }
  log(`load average ${loadavg().map((l) => l.toFixed(1)).join(" ")}`);
  const [first, second] = results as [Started, Started];
  const verdict = (ok: boolean) => (ok ? "PASS" : "FAIL");
  log(`target ready ≤ ${TARGET_READY_MS / 1000} s (second start): ${(second.readyMs / 1000).toFixed(1)} s ${verdict(second.readyMs <= TARGET_READY_MS)}`);
  log(`target idle RSS ≤ ${TARGET_RSS_MB} MB: first start ${first.rss.toFixed(0)} MB ${verdict(first.rss <= TARGET_RSS_MB)}, second start ${second.rss.toFixed(0)} MB ${verdict(second.rss <= TARGET_RSS_MB)}`);
  if (second.checks) log(`(not a target) RSS after ${CHECKS.length} checks, second start: ${second.checks.rss.toFixed(0)} MB`);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
