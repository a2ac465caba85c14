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

interface Started {
  readyMs: number;
  cpuS: number;
  rss: number;
  hwm: number;
}

async function startOnce(dataDir: string): Promise<Started> {
  const env: NodeJS.ProcessEnv = { ...process.env, SVC_DATA_DIR: dataDir, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info" };
  delete env.DATABASE_URL;
  const t0 = performance.now();
  const child: ChildProcess = NPM_START
    ? spawn("npm", ["start", "--silent"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"], detached: true })
    : spawn(process.execPath, [join(ROOT, "apps", "api", "dist", "main.js")], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout?.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (out += d.toString()));
  let exited: number | null | undefined;
  child.once("exit", (c) => (exited = c));
  try {
    let listening: { port: number; pid: number } | undefined;
    while (!listening) {
      if (exited !== undefined) throw new Error(`the API exited with ${exited}:\n${out}`);
      for (const line of out.split("\n")) {
        if (!line.startsWith("{")) continue;
        const e = JSON.parse(line) as { msg?: string; port?: number; pid?: number };
        if (e.msg === "svc API listening" && e.port && e.pid) listening = { port: e.port, pid: e.pid };
      }
      if (!listening) await sleep(20);
    }
    for (;;) {
      const r = await fetch(`http://127.0.0.1:${listening.port}/readyz`).catch(() => null);
      if (r?.status === 200) break;
      await sleep(20);
    }
    const readyMs = performance.now() - t0;
    const cpuS = cpuOf(listening.pid);
    await sleep(IDLE_S * 1000);
    return { readyMs, cpuS, ...memoryOf(listening.pid) };
  } finally {
    if (NPM_START && child.pid) process.kill(-child.pid, "SIGTERM");
    else child.kill("SIGTERM");
    if (exited === undefined) await new Promise((r) => child.once("exit", r));
  }
}

const dataDir = mkdtempSync(join(tmpdir(), "svc-bench-startup-"));
try {
  log(`load average ${loadavg().map((l) => l.toFixed(1)).join(" ")}; root ${ROOT}; ${NPM_START ? "npm start" : "node apps/api/dist/main.js"}; idle ${IDLE_S} s; node ${process.version}`);
  if (!NPM_START) log(`build (tools/build.mjs): ${(await build()).toFixed(0)} ms`);
  for (const which of ["first start (new database)", "second start (same data directory)"]) {
    const s = await startOnce(dataDir);
    log(`${which}: ready in ${s.readyMs.toFixed(0)} ms (API process CPU ${s.cpuS.toFixed(2)} s); after ${IDLE_S} s idle RSS ${s.rss.toFixed(0)} MB (peak ${s.hwm.toFixed(0)} MB)`);
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
