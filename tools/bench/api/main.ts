// HTTP API benchmark, in one run: a bare Hono + zod baseline, POST /v1/screen on PostgreSQL and on
// embedded PGlite, a batch of 100, a depth-3 graph walk on 100,000 nodes / 500,000 edges, and a
// CSV export of 1,000,000 audit rows. Each server runs in its own child process on 127.0.0.1;
// autocannon (programmatic) and the other clients run in this process.
//   npx tsx tools/bench/api/main.ts [--seconds=10] [--warmup=3] [--connections=50]
//        [--only=baseline,pg,batch,pglite,graph,export] [--profile] [--accounts=1] [--keys=200] [--export-rows=1000000]
//        [--api=<another build's apps/api/dist/main.js>]
// The servers run as compiled JavaScript, as in production: the workspaces are built first
// (`node tools/build.mjs`, incremental) and the API started as `node apps/api/dist/main.js`; the
// baseline server is compiled the same way (esbuild, one file, to tools/bench/api/dist/).
// --profile starts the servers under `node --cpu-prof` and prints the API's top self-time
// functions (the figures of a profiled run are lower; do not record them as results).
// When the PostgreSQL server has pg_stat_statements in shared_preload_libraries, the screen phase
// also prints the statements that took the most execution time, per check.
// PostgreSQL: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres) must allow
// CREATE DATABASE; every database this creates is named svc_bench_* and dropped at the end.
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import pg from "pg";
import { realisticDomains } from "./domains.js";
import { build as esbuild } from "esbuild";
import { build } from "../../build.mjs";
import { printProfile, summariseProfile } from "./profile.js";
import { cpuSeconds, procStatusMb, startServer, withCpu, type Server } from "./procs.js";
import { auditCounts, createDatabase, createKeys, dbUrl, dropDatabase, graphRoots, seedAuditRows, seedGraph, type BenchKey } from "./seed.js";

// ---- options -----------------------------------------------------------------------------------
const arg = (name: string, fallback: string): string => {
  const hit = process.argv.find((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (!hit) return fallback;
  return hit.includes("=") ? hit.slice(hit.indexOf("=") + 1) : "true";
};
const SECONDS = Number(arg("seconds", "10"));
const WARMUP = Number(arg("warmup", "3"));
const CONNECTIONS = Number(arg("connections", "50"));
const ACCOUNTS = Number(arg("accounts", "1"));
const SCREEN_KEYS = Number(arg("keys", "200"));
const PROFILE = arg("profile", "false") === "true";
const ALL = ["baseline", "pg", "batch", "pglite", "graph", "export"] as const;
type Scenario = (typeof ALL)[number];
const ONLY = new Set(arg("only", ALL.join(",")).split(",").map((s) => s.trim()) as Scenario[]);
for (const s of ONLY) if (!ALL.includes(s)) throw new Error(`unknown scenario ${s}; one of ${ALL.join(", ")}`);
const on = (s: Scenario) => ONLY.has(s);

const BATCH_SIZE = 100;
const BATCH_WARMUP = 10;
const BATCH_RUNS = 100;
const BATCH_KEYS = 20; // 1,500 checks/min per pro key = 15 batches of 100 per key and minute
const GRAPH_NODES = 100_000;
const GRAPH_EDGES = 500_000;
const WALK_WARMUP = 20;
const WALKS = 300;
const EXPORT_ROWS = Number(arg("export-rows", "1000000"));
// Time caps that keep one run within minutes even when a target is missed by far.
const BATCH_CAP_S = 30;
const WALK_CAP_S = 45;
const EXPORT_CAP_S = 60;
const BOOTSTRAP = "svc-benchmark-bootstrap-secret-0000000000";

// Issue targets: POST /v1/screen on PostgreSQL ≥ 0.15× the bare server (goal 0.25×), p99 ≤ 50 ms at
// 50 connections; batch of 100 p50 ≤ 25 ms; PGlite ≥ 1,000 checks/s; export ≥ 100,000 rows/s in
// ≤ 200 MB. checksPerSec is the absolute rate that sets the CPU budget per check shown beside them.
const TARGETS = { checksPerSec: 5_000, ratio: 0.15, ratioGoal: 0.25, p99Ms: 50, batchP50Ms: 25, pgliteChecksPerSec: 1_000, walkP99Ms: 50, exportRowsPerSec: 100_000, exportRssMb: 200 };

const here = fileURLToPath(new URL(".", import.meta.url));
const repo = join(here, "..", "..", "..");
// --api=<path>: another build's compiled API (e.g. an older commit's, built in its own checkout),
// to compare with this one under the same tool; this checkout's is built and run by default.
const API_OTHER = arg("api", "");
const API = API_OTHER || join(repo, "apps", "api", "dist", "main.js");
const BASELINE_SOURCE = join(here, "baseline-server.ts");
const BASELINE = join(here, "dist", "baseline-server.js");
process.chdir(repo);

/** Compiles what the servers run: every workspace (incremental) and the baseline server. */
async function compileServers(): Promise<void> {
  await build({ quiet: true });
  // Not bundled: its imports resolve from the repository's node_modules, as the API's do.
  await esbuild({ entryPoints: [BASELINE_SOURCE], outfile: BASELINE, bundle: false, format: "esm", platform: "node", target: "node20.19", logLevel: "error" });
}

// ---- cleanup ----------------------------------------------------------------------------------
const cleanups: (() => Promise<void> | void)[] = [];
const atExit = (f: () => Promise<void> | void) => cleanups.push(f);
async function cleanup(): Promise<void> {
  for (const f of cleanups.splice(0).reverse()) {
    try {
      await f();
    } catch (e) {
      console.error(`cleanup: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
}
process.once("SIGINT", () => void cleanup().then(() => process.exit(130)));

// ---- helpers ----------------------------------------------------------------------------------
const t0 = performance.now();
const elapsed = () => `${((performance.now() - t0) / 1000).toFixed(0).padStart(3)}s`;
const log = (s: string) => console.log(`[${elapsed()}] ${s}`);
const fmt = (n: number, digits = 0) => n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
const pct = (xs: readonly number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? Number.NaN;
};

const profileDirs: string[] = [];
interface Api { readonly server: Server; readonly profileDir: string | null; readonly windows: { label: string; fromMs: number; toMs: number }[] }
/** Marks a time span (from `from`, a performance.now(), to now) for the CPU profile of `api`. */
function mark(api: Api, label: string, from: number): void {
  api.windows.push({ label, fromMs: from - api.server.spawnedAt, toMs: performance.now() - api.server.spawnedAt });
}
/** Runs `f`, and marks its time span for the CPU profile of `api` (when profiling). */
async function phase<T>(api: Api, label: string, f: () => Promise<T>): Promise<T> {
  const from = performance.now() - api.server.spawnedAt;
  try {
    return await f();
  } finally {
    api.windows.push({ label, fromMs: from, toMs: performance.now() - api.server.spawnedAt });
  }
}
async function startApi(name: string, env: Record<string, string>): Promise<Api> {
  const profileDir = PROFILE ? mkdtempSync(join(tmpdir(), `svc-bench-prof-${name}-`)) : null;
  if (profileDir) profileDirs.push(profileDir);
  const server = await startServer(API, { SVC_BOOTSTRAP_KEY: BOOTSTRAP, ...env }, profileDir ? { cpuProfDir: profileDir } : {});
  atExit(async () => void (await server.stop(5_000)));
  return { server, profileDir, windows: [] };
}
async function stopApi(name: string, api: Api): Promise<void> {
  const code = await api.server.stop();
  if (code !== 0) log(`${name}: API exited with ${code}\n${api.server.output()}`);
  if (!api.profileDir) return;
  for (const w of api.windows) {
    const s = summariseProfile(api.profileDir, 25, w);
    if (s) printProfile(`${name}, ${w.label} (${((w.toMs - w.fromMs) / 1000).toFixed(1)} s)`, s);
  }
}

interface LoadResult {
  readonly reqPerSec: number;
  readonly ok: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly p50: number;
  readonly p99: number;
  readonly seconds: number;
  /** Sent but not answered when autocannon closed its connections. */
  readonly unanswered: number;
  readonly statusCodes: Record<string, number>;
  readonly ids: string[];
  readonly cpu: { server: number; postgres: number; bench: number; other: number };
  readonly samples: string[];
}

/**
 * POST /v1/screen with a distinct domain per request (and for the API a key per request, rotated
 * over `keys`): `WARMUP` s, then `SECONDS` s measured. The verdict ids of 200 answers (warm-up
 * included) are collected to check the audit trail afterwards.
 */
async function screenLoad(server: Server, keys: readonly BenchKey[] | null, domains: readonly string[]): Promise<{ warm: LoadResult; main: LoadResult }> {
  let next = 0;
  const headerSets = keys ? keys.map((k) => ({ "content-type": "application/json", "x-api-key": k.key })) : [{ "content-type": "application/json" }];
  const run = async (seconds: number): Promise<LoadResult> => {
    const ids: string[] = [];
    const samples: string[] = [];
    const { value: r, cpu } = await withCpu(server.pid, async () => autocannon({
      url: server.url,
      connections: CONNECTIONS,
      duration: seconds,
      timeout: 30,
      requests: [{
        method: "POST",
        path: "/v1/screen",
        setupRequest: (req) => {
          const i = next++;
          return { ...req, headers: headerSets[i % headerSets.length] as Record<string, string>, body: `{"entity_value":${JSON.stringify(domains[i % domains.length])}}` };
        },
        onResponse: (status, body) => {
          if (status === 200) {
            if (body.startsWith('{"id":"')) ids.push(body.slice(7, body.indexOf('"', 7)));
            else ids.push((JSON.parse(body) as { id: string }).id);
          } else if (samples.length < 3) samples.push(`${status} ${body.slice(0, 300)}`);
        },
      }],
    }));
    const answered = r["2xx"] + r.non2xx;
    return {
      reqPerSec: r.requests.average,
      ok: r["2xx"],
      non2xx: r.non2xx,
      errors: r.errors,
      p50: r.latency.p50,
      p99: r.latency.p99,
      seconds: r.duration,
      unanswered: Math.max(0, (r.requests.sent ?? answered) - answered - r.errors),
      statusCodes: Object.fromEntries(Object.entries(r.statusCodeStats).map(([k, v]) => [k, v.count])),
      ids,
      cpu,
      samples,
    };
  };
  const warm = await run(WARMUP);
  const main = await run(SECONDS);
  if (next > domains.length) log(`note: ${fmt(next)} requests for ${fmt(domains.length)} distinct domains (some repeated)`);
  return { warm, main };
}

function describeLoad(name: string, r: LoadResult, baseline: LoadResult | null): void {
  log(`${name}: ${fmt(r.reqPerSec)} req/s, ${fmt(r.ok)} × 2xx, ${fmt(r.non2xx)} non-2xx, ${r.errors} errors; latency p50 ${r.p50} ms, p99 ${r.p99} ms${baseline ? `; ratio to baseline ${(r.reqPerSec / baseline.reqPerSec).toFixed(3)}` : ""}`);
  log(`${name}: CPU (cores of 2) server ${r.cpu.server.toFixed(2)}, postgres ${r.cpu.postgres.toFixed(2)}, bench/autocannon ${r.cpu.bench.toFixed(2)}, other processes ${r.cpu.other.toFixed(2)}; status codes ${JSON.stringify(r.statusCodes)}`);
  const per = (cores: number) => ((cores * 1000) / Math.max(1, r.reqPerSec)).toFixed(2);
  log(`${name}: CPU time per request: server ${per(r.cpu.server)} ms, postgres ${per(r.cpu.postgres)} ms, load generator ${per(r.cpu.bench)} ms`);
  for (const s of r.samples) log(`${name}: sample non-2xx: ${s}`);
}

/** One HTTP request on a keep-alive agent; the time from writing the request to the last byte. */
function timedRequest(agent: http.Agent, url: string, method: string, headers: Record<string, string>, body?: string): Promise<{ status: number; ms: number; body: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.request(url, { method, agent, headers: body === undefined ? headers : { ...headers, "content-length": String(Buffer.byteLength(body)) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started, body: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

/**
 * What PostgreSQL ran for the bench database, per statement text, from `pg_stat_statements`
 * (cumulative: the caller diffs two readings); null when the server does not have it loaded
 * (it must be in `shared_preload_libraries`, which needs a restart of the server).
 */
type StatementStats = Map<string, { query: string; calls: number; rows: number; execMs: number }>;
async function statementStats(db: string): Promise<StatementStats | null> {
  const c = new pg.Client({ connectionString: dbUrl(db) });
  await c.connect();
  try {
    await c.query(`CREATE EXTENSION IF NOT EXISTS pg_stat_statements`);
    const { rows } = await c.query(
      `SELECT query, calls::float8 AS calls, rows::float8 AS rows, total_exec_time AS exec_ms
         FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = $1)`,
      [db],
    );
    // One entry per statement text with its parameter numbers left out: a multi-row statement
    // prepared once per group size (the audit append) counts as one.
    const out: StatementStats = new Map();
    for (const r of rows as { query: string; calls: number; rows: number; exec_ms: number }[]) {
      const query = r.query.replace(/\$\d+/g, "$").replace(/\s+/g, " ").replace(/(\([^()]*\))(, \([^()]*\))+/g, "$1, …");
      const had = out.get(query);
      out.set(query, { query, calls: r.calls + (had?.calls ?? 0), rows: r.rows + (had?.rows ?? 0), execMs: r.exec_ms + (had?.execMs ?? 0) });
    }
    return out;
  } catch {
    return null;
  } finally {
    await c.end();
  }
}

/** The statements that took the most execution time between two readings, per check. */
function printStatements(before: StatementStats | null, after: StatementStats | null, checks: number): void {
  if (!before || !after) {
    log("PostgreSQL: statements per check not measured (pg_stat_statements is not in the server's shared_preload_libraries)");
    return;
  }
  const diff = [...after].map(([id, a]) => {
    const b = before.get(id);
    return { query: a.query, calls: a.calls - (b?.calls ?? 0), rows: a.rows - (b?.rows ?? 0), execMs: a.execMs - (b?.execMs ?? 0) };
  }).filter((d) => d.calls > 0).sort((x, y) => y.execMs - x.execMs);
  const total = diff.reduce((t, d) => t + d.execMs, 0);
  log(`PostgreSQL: statements per check (pg_stat_statements, execution time only: parsing, binding and commits are not in it): ${(diff.reduce((t, d) => t + d.calls, 0) / checks).toFixed(2)} statements, ${((total * 1000) / checks).toFixed(0)} µs`);
  for (const d of diff.slice(0, 12)) {
    console.log(`    ${((d.execMs * 1000) / checks).toFixed(1).padStart(6)} µs  ${(d.calls / checks).toFixed(3)} calls  ${(d.rows / checks).toFixed(2).padStart(5)} rows  ${d.query.slice(0, 110)}`);
  }
}

async function pgStats(db: string): Promise<{ commits: number; walSyncs: number; walBytes: number }> {
  const c = new pg.Client({ connectionString: dbUrl(db) });
  await c.connect();
  try {
    const d = (await c.query(`SELECT xact_commit::float8 AS commits FROM pg_stat_database WHERE datname = $1`, [db])).rows[0] as { commits: number };
    const w = (await c.query(`SELECT wal_sync::float8 AS syncs, wal_bytes::float8 AS bytes FROM pg_stat_wal`)).rows[0] as { syncs: number; bytes: number };
    return { commits: d.commits, walSyncs: w.syncs, walBytes: w.bytes };
  } finally {
    await c.end();
  }
}

async function countFound(db: string, ids: readonly string[]): Promise<number> {
  const c = new pg.Client({ connectionString: dbUrl(db) });
  await c.connect();
  try {
    return ((await c.query(`SELECT count(*)::int AS n FROM checks WHERE id = ANY ($1::text[])`, [ids])).rows[0] as { n: number }).n;
  } finally {
    await c.end();
  }
}

/** Audit rows vs. answers: every 200 has its row; rows beyond the 200s are requests abandoned by the client at the end of a run. */
function auditLine(name: string, rows: number, found: number, warm: LoadResult, main: LoadResult): { ok: boolean; text: string } {
  const n200 = warm.ok + main.ok;
  const abandoned = warm.unanswered + main.unanswered;
  const extra = rows - n200;
  const ok = found === n200 && extra >= 0 && extra <= abandoned;
  const text = `${name}: audit rows ${fmt(rows)}; 200 answers ${fmt(n200)} (warm-up + run), of which ${fmt(found)} found by id` +
    `${extra === 0 ? " — rows = 200 answers" : `; ${fmt(extra)} more rows than answers = requests in flight when autocannon closed its connections (${fmt(abandoned)} unanswered)`}` +
    ` → ${ok ? "consistent" : "MISMATCH"}`;
  return { ok, text };
}

// ---- the run ----------------------------------------------------------------------------------
interface Row { readonly what: string; readonly value: string; readonly target: string; readonly vsTarget: string; readonly met: string; readonly vsBaseline?: string }
const rows: Row[] = [];
const verdict = (met: boolean) => (met ? "met" : "MISSED");

async function main(): Promise<void> {
  await compileServers();
  const pgVersion = await (async () => {
    const c = new pg.Client({ connectionString: dbUrl("postgres") });
    await c.connect();
    const v = (await c.query("SHOW server_version")).rows[0] as { server_version: string };
    await c.end();
    return v.server_version;
  })();
  console.log(`node ${process.version}, ${cpus()[0]?.model ?? "cpu"} × ${cpus().length}, PostgreSQL ${pgVersion}, autocannon 9 in this process; load average ${loadavg().map((x) => x.toFixed(2)).join(" ")} at start`);
  if (API_OTHER) console.log(`API under test: ${API_OTHER}`);
  console.log(`load: ${CONNECTIONS} connections, ${WARMUP} s warm-up + ${SECONDS} s; ${SCREEN_KEYS} pro keys over ${ACCOUNTS} account(s), rotated per request${PROFILE ? "; PROFILING (figures perturbed)" : ""}`);
  const domains = realisticDomains(400_000);
  const batchDomains = domains.slice(-(BATCH_SIZE * (BATCH_WARMUP + BATCH_RUNS)));
  const screenDomains = domains.slice(0, domains.length - batchDomains.length);
  log(`${fmt(domains.length)} distinct domains, e.g. ${screenDomains.slice(0, 6).join(", ")}`);

  // 1. baseline
  let baseline: LoadResult | null = null;
  if (on("baseline")) {
    const server = await startServer(BASELINE, {});
    atExit(async () => void (await server.stop(5_000)));
    const { main: r } = await screenLoad(server, null, screenDomains);
    const hwm = procStatusMb(server.pid, "VmHWM");
    await server.stop();
    baseline = r;
    describeLoad("baseline (Hono + zod, no I/O)", r, null);
    log(`baseline: peak RSS (VmHWM) of the bare Hono process: ${hwm.toFixed(0)} MB`);
    rows.push({ what: "baseline: Hono POST + zod, req/s", value: fmt(r.reqPerSec), target: "—", vsTarget: "", met: "", vsBaseline: "1.000" });
    rows.push({ what: "baseline: CPU ms per request (server+client)", value: `${((r.cpu.server * 1000) / Math.max(1, r.reqPerSec)).toFixed(2)}+${((r.cpu.bench * 1000) / Math.max(1, r.reqPerSec)).toFixed(2)}`, target: "—", vsTarget: "", met: "" });
  }

  // 2. PostgreSQL: screen, then batch on the same server
  let screenDb: string | null = null;
  let screenAccounts: string[] = [];
  if (on("pg") || on("batch") || on("export")) {
    screenDb = await createDatabase("screen");
    const db = screenDb;
    atExit(() => dropDatabase(db));
    const keys = await createKeys({ url: dbUrl(db) }, ACCOUNTS, SCREEN_KEYS + BATCH_KEYS);
    screenAccounts = [...new Set(keys.map((k) => k.accountId))];
    const screenKeys = keys.slice(0, SCREEN_KEYS);
    const batchKeys = keys.slice(SCREEN_KEYS);
    const api = await startApi("pg", { DATABASE_URL: dbUrl(db) });
    log(`PostgreSQL API up (pid ${api.server.pid}, database ${db})`);
    if (on("pg")) {
      const before = await pgStats(db);
      const statementsBefore = await statementStats(db);
      const { warm, main: r } = await phase(api, "POST /v1/screen under load", () => screenLoad(api.server, screenKeys, screenDomains));
      const ids = [...warm.ids, ...r.ids];
      // Read at once, while the server still runs: a 200 must not exist without its committed row.
      const foundAtOnce = await countFound(db, ids);
      await new Promise((res) => setTimeout(res, 1_500));
      const after = await pgStats(db);
      const statementsAfter = await statementStats(db);
      const { rows: auditRows } = await auditCounts({ url: dbUrl(db) }, screenAccounts, []);
      describeLoad("POST /v1/screen on PostgreSQL", r, baseline);
      const audit = auditLine("PostgreSQL", auditRows, foundAtOnce, warm, r);
      log(audit.text);
      const checks = warm.ok + r.ok;
      log(`PostgreSQL: per check ${(( after.commits - before.commits) / checks).toFixed(2)} commits, ${((after.walSyncs - before.walSyncs) / checks).toFixed(3)} WAL fsyncs, ${fmt((after.walBytes - before.walBytes) / checks)} WAL bytes (incl. background graph updates)`);
      printStatements(statementsBefore, statementsAfter, checks);
      const ratio = baseline ? r.reqPerSec / baseline.reqPerSec : Number.NaN;
      rows.push({ what: "PostgreSQL: POST /v1/screen checks/s", value: fmt(r.ok / r.seconds), target: `≥ ${fmt(TARGETS.checksPerSec)}`, vsTarget: (r.ok / r.seconds / TARGETS.checksPerSec).toFixed(2), met: verdict(r.ok / r.seconds >= TARGETS.checksPerSec), ...(baseline ? { vsBaseline: ratio.toFixed(3) } : {}) });
      rows.push({ what: "PostgreSQL: ratio to baseline", value: baseline ? ratio.toFixed(3) : "n/a", target: `≥ ${TARGETS.ratio} (goal ${TARGETS.ratioGoal})`, vsTarget: baseline ? (ratio / TARGETS.ratio).toFixed(2) : "n/a", met: baseline ? verdict(ratio >= TARGETS.ratio) : "n/a" });
      rows.push({ what: "PostgreSQL: latency p50 / p99 ms", value: `${r.p50} / ${r.p99}`, target: `p99 ≤ ${TARGETS.p99Ms}`, vsTarget: (r.p99 / TARGETS.p99Ms).toFixed(2), met: verdict(r.p99 <= TARGETS.p99Ms) });
      // Independent of other load on the machine: at 5,000 checks/s, 2 cores leave 0.4 ms of CPU per check for everything.
      const cpuPerCheck = ((r.cpu.server + r.cpu.postgres + r.cpu.bench) * 1000) / Math.max(1, r.reqPerSec);
      const budget = (cpus().length * 1000) / TARGETS.checksPerSec;
      rows.push({ what: "PostgreSQL: CPU ms per check (API+PG+client)", value: `${((r.cpu.server * 1000) / Math.max(1, r.reqPerSec)).toFixed(2)}+${((r.cpu.postgres * 1000) / Math.max(1, r.reqPerSec)).toFixed(2)}+${((r.cpu.bench * 1000) / Math.max(1, r.reqPerSec)).toFixed(2)}`, target: `≤ ${budget.toFixed(2)} in all`, vsTarget: (cpuPerCheck / budget).toFixed(2), met: verdict(cpuPerCheck <= budget) });
      rows.push({ what: "PostgreSQL: non-2xx / errors", value: `${fmt(r.non2xx)} / ${r.errors}`, target: "0", vsTarget: "", met: verdict(r.non2xx === 0 && r.errors === 0) });
      rows.push({ what: "PostgreSQL: audit row per 200 answer", value: `${fmt(foundAtOnce)} of ${fmt(warm.ok + r.ok)}`, target: "all", vsTarget: "", met: verdict(audit.ok) });
    }
    if (on("batch")) {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const times: number[] = [];
      let failures = 0;
      let serverCpu = 0;
      const batchStart = performance.now();
      for (let b = 0; b < BATCH_WARMUP + BATCH_RUNS; b++) {
        if (b >= BATCH_WARMUP + 30 && performance.now() - batchStart > BATCH_CAP_S * 1000) break;
        const entities = batchDomains.slice(b * BATCH_SIZE, (b + 1) * BATCH_SIZE);
        const key = batchKeys[b % batchKeys.length] as BenchKey;
        const c0 = cpuSeconds(api.server.pid);
        const res = await timedRequest(agent, `${api.server.url}/v1/screen/batch`, "POST", { "content-type": "application/json", "x-api-key": key.key }, JSON.stringify({ entities }));
        if (res.status !== 200) {
          failures++;
          if (failures <= 3) log(`batch: ${res.status} ${res.body.slice(0, 300)}`);
        }
        if (b >= BATCH_WARMUP) {
          times.push(res.ms);
          serverCpu += cpuSeconds(api.server.pid) - c0;
        }
      }
      agent.destroy();
      mark(api, "sequential batches of 100", batchStart);
      const p50 = pct(times, 50);
      log(`batch of ${BATCH_SIZE} (PostgreSQL, 1 connection, ${times.length} sequential after ${BATCH_WARMUP}${times.length < BATCH_RUNS ? `, stopped at the ${BATCH_CAP_S} s cap` : ""}): p50 ${p50.toFixed(1)} ms, p90 ${pct(times, 90).toFixed(1)} ms, p99 ${pct(times, 99).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms; ${failures} failures; API CPU ${((serverCpu / times.length) * 1000).toFixed(0)} ms per batch`);
      rows.push({ what: `batch of ${BATCH_SIZE}: latency p50 ms`, value: p50.toFixed(1), target: `≤ ${TARGETS.batchP50Ms}`, vsTarget: (p50 / TARGETS.batchP50Ms).toFixed(2), met: verdict(p50 <= TARGETS.batchP50Ms && failures === 0) });
    }
    await stopApi("PostgreSQL screen/batch", api);
  }

  // 3. PGlite
  if (on("pglite")) {
    const dir = mkdtempSync(join(tmpdir(), "svc-bench-pglite-"));
    atExit(() => rmSync(dir, { recursive: true, force: true }));
    const dataDir = join(dir, "pgdata");
    const keys = await createKeys({ dataDir }, ACCOUNTS, SCREEN_KEYS);
    const accounts = [...new Set(keys.map((k) => k.accountId))];
    const api = await startApi("pglite", { SVC_DATA_DIR: dir });
    log(`PGlite API up (pid ${api.server.pid}, ${dir})`);
    const { warm, main: r } = await phase(api, "POST /v1/screen under load", () => screenLoad(api.server, keys, screenDomains));
    await stopApi("PGlite", api);
    const counts = await auditCounts({ dataDir }, accounts, [...warm.ids, ...r.ids]);
    describeLoad("POST /v1/screen on PGlite", r, baseline);
    const audit = auditLine("PGlite", counts.rows, counts.found, warm, r);
    log(audit.text);
    rows.push({ what: "PGlite: POST /v1/screen checks/s", value: fmt(r.ok / r.seconds), target: `≥ ${fmt(TARGETS.pgliteChecksPerSec)}`, vsTarget: (r.ok / r.seconds / TARGETS.pgliteChecksPerSec).toFixed(2), met: verdict(r.ok / r.seconds >= TARGETS.pgliteChecksPerSec), ...(baseline ? { vsBaseline: (r.reqPerSec / baseline.reqPerSec).toFixed(3) } : {}) });
    rows.push({ what: "PGlite: latency p50 / p99 ms", value: `${r.p50} / ${r.p99}`, target: "—", vsTarget: "", met: "" });
    rows.push({ what: "PGlite: non-2xx / errors; audit rows", value: `${fmt(r.non2xx)} / ${r.errors}; ${fmt(counts.found)} of ${fmt(warm.ok + r.ok)}`, target: "0; all", vsTarget: "", met: verdict(r.non2xx === 0 && r.errors === 0 && audit.ok) });
  }

  // 4. graph walk
  if (on("graph")) {
    const db = await createDatabase("graph");
    atExit(() => dropDatabase(db));
    const [key] = await createKeys({ url: dbUrl(db) }, 1, 1, "acc_graph");
    const g = await seedGraph(dbUrl(db), GRAPH_NODES, GRAPH_EDGES);
    log(`graph seeded in ${g.seconds.toFixed(1)} s: ${fmt(g.nodes)} nodes, ${fmt(g.edges)} edges; degree mean ${g.meanDegree.toFixed(1)}, p50 ${g.p50Degree}, p99 ${g.p99Degree}, max ${fmt(g.maxDegree)}`);
    const roots = await graphRoots(dbUrl(db), WALK_WARMUP + WALKS);
    const api = await startApi("graph", { DATABASE_URL: dbUrl(db) });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const times: number[] = [];
    let failures = 0;
    let truncated = 0;
    let nodes = 0;
    const walkStart = performance.now();
    for (let i = 0; i < roots.length; i++) {
      if (times.length >= 200 && performance.now() - walkStart > WALK_CAP_S * 1000) break;
      const res = await timedRequest(agent, `${api.server.url}/v1/graph/domain/${encodeURIComponent(roots[i] as string)}?depth=3&max_nodes=500`, "GET", { "x-api-key": (key as BenchKey).key });
      if (res.status !== 200) {
        failures++;
        if (failures <= 3) log(`graph: ${res.status} ${res.body.slice(0, 300)}`);
        continue;
      }
      if (i < WALK_WARMUP) continue;
      times.push(res.ms);
      const body = JSON.parse(res.body) as { nodes: unknown[]; truncated: boolean };
      nodes += body.nodes.length;
      if (body.truncated) truncated++;
    }
    agent.destroy();
    mark(api, "sequential depth-3 walks", walkStart);
    await stopApi("graph", api);
    const p99 = pct(times, 99);
    log(`graph walk depth 3 (GET /v1/graph/domain/…?depth=3&max_nodes=500, 1 connection, ${times.length} random roots after ${WALK_WARMUP}${times.length < WALKS ? `, stopped at the ${WALK_CAP_S} s cap` : ""}): p50 ${pct(times, 50).toFixed(1)} ms, p90 ${pct(times, 90).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms; ${(nodes / Math.max(1, times.length)).toFixed(0)} nodes per walk on average, ${truncated} truncated at a cap; ${failures} failures`);
    rows.push({ what: "graph walk depth 3: p99 ms", value: p99.toFixed(1), target: `≤ ${TARGETS.walkP99Ms}`, vsTarget: (p99 / TARGETS.walkP99Ms).toFixed(2), met: verdict(p99 <= TARGETS.walkP99Ms && failures === 0) });
  }

  // 5. export
  if (on("export") && screenDb) {
    const db = screenDb;
    if (!on("pg")) {
      // The rows are copies of real records: make a few if the screening run was skipped.
      const api = await startApi("seed", { DATABASE_URL: dbUrl(db) });
      const keys = await createKeys({ url: dbUrl(db) }, 1, 1, "acc_tpl");
      screenAccounts = [(keys[0] as BenchKey).accountId];
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      for (let i = 0; i < 200; i++) await timedRequest(agent, `${api.server.url}/v1/screen`, "POST", { "content-type": "application/json", "x-api-key": (keys[0] as BenchKey).key }, JSON.stringify({ entity_value: screenDomains[i] }));
      agent.destroy();
      await stopApi("seed", api);
    }
    const [key] = await createKeys({ url: dbUrl(db) }, 1, 1, "acc_export");
    const k = key as BenchKey;
    const seedSecs = await seedAuditRows(dbUrl(db), screenAccounts, k.accountId, k.keyId, EXPORT_ROWS);
    log(`${fmt(EXPORT_ROWS)} audit rows seeded in ${seedSecs.toFixed(1)} s`);
    const api = await startApi("export", { DATABASE_URL: dbUrl(db) });
    const hwmBefore = procStatusMb(api.server.pid, "VmHWM");
    const rssBefore = procStatusMb(api.server.pid, "VmRSS");
    let maxRss = 0;
    const timeline: number[] = [];
    let ticks = 0;
    const sampler = setInterval(() => {
      const rss = procStatusMb(api.server.pid, "VmRSS");
      maxRss = Math.max(maxRss, rss);
      if (ticks++ % 50 === 0) timeline.push(Math.round(rss));
    }, 100);
    const started = performance.now();
    const { lines, bytes, status, capped } = await new Promise<{ lines: number; bytes: number; status: number; capped: boolean }>((resolve, reject) => {
      const req = http.get(`${api.server.url}/v1/audit/export`, { headers: { "x-api-key": k.key } }, (res) => {
        let lines = 0;
        let bytes = 0;
        // Past the cap, stop reading and report the rate so far.
        const cap = setTimeout(() => {
          res.destroy();
          resolve({ lines, bytes, status: res.statusCode ?? 0, capped: true });
        }, EXPORT_CAP_S * 1000);
        res.on("data", (c: Buffer) => {
          bytes += c.length;
          for (let i = c.indexOf(10); i !== -1; i = c.indexOf(10, i + 1)) lines++;
        });
        res.on("end", () => {
          clearTimeout(cap);
          resolve({ lines, bytes, status: res.statusCode ?? 0, capped: false });
        });
        res.on("error", (e) => {
          clearTimeout(cap);
          reject(e);
        });
      });
      req.on("error", reject);
    });
    const secs = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const hwm = procStatusMb(api.server.pid, "VmHWM");
    mark(api, "GET /v1/audit/export", started);
    await stopApi("export", api);
    const exported = lines - 1; // header line
    const rate = exported / secs;
    log(`export: HTTP ${status}, ${fmt(exported)} rows, ${fmt(bytes / 2 ** 20, 1)} MiB CSV in ${secs.toFixed(2)} s = ${fmt(rate)} rows/s${capped ? ` (stopped at the ${EXPORT_CAP_S} s cap)` : ""}; API peak RSS (VmHWM) ${hwm.toFixed(0)} MB (before the export: RSS ${rssBefore.toFixed(0)} MB, peak since start ${hwmBefore.toFixed(0)} MB; highest RSS sampled during it ${maxRss.toFixed(0)} MB; RSS every 5 s: ${timeline.join(", ")} MB)`);
    rows.push({ what: `export ${fmt(EXPORT_ROWS)} rows: rows/s`, value: fmt(rate), target: `≥ ${fmt(TARGETS.exportRowsPerSec)}`, vsTarget: (rate / TARGETS.exportRowsPerSec).toFixed(2), met: verdict(rate >= TARGETS.exportRowsPerSec && exported === EXPORT_ROWS && status === 200) });
    if (capped) rows.push({ what: "export: rows streamed before the cap", value: fmt(exported), target: fmt(EXPORT_ROWS), vsTarget: (exported / EXPORT_ROWS).toFixed(2), met: "" });
    rows.push({ what: "export: API peak RSS (VmHWM) MB", value: hwm.toFixed(0), target: `≤ ${TARGETS.exportRssMb}`, vsTarget: (hwm / TARGETS.exportRssMb).toFixed(2), met: verdict(hwm <= TARGETS.exportRssMb) });
  }

  // ---- summary ----------------------------------------------------------------------------------
  const w = [Math.max(...rows.map((r) => r.what.length)), Math.max(5, ...rows.map((r) => r.value.length)), Math.max(6, ...rows.map((r) => r.target.length)), 8, 10];
  const line = (cells: readonly string[]) => cells.map((c, i) => (i === 0 || i === 2 ? c.padEnd(w[i] as number) : i < 5 ? c.padStart(w[i] as number) : c)).join("  ");
  console.log(`\n== summary (${elapsed().trim()} in all; req/s ÷ baseline req/s; figure ÷ target; load average ${loadavg().map((x) => x.toFixed(2)).join(" ")} at the end)`);
  console.log(line(["", "value", "target", "÷ target", "÷ baseline", ""]));
  for (const r of rows) console.log(line([r.what, r.value, r.target, r.vsTarget, r.vsBaseline ?? "", r.met]));
  if (profileDirs.length > 0) console.log(`\nCPU profiles kept in: ${profileDirs.join(", ")}`);
}

try {
  await main();
} finally {
  await cleanup();
}
