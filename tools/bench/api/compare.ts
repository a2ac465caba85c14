// Two builds of the API side by side: `POST /v1/screen` on PostgreSQL under the same load, run in
// alternating pairs so that the machine's drift (its speed moves by tens of percent within an hour)
// falls on both alike. Each run is `tools/bench/api/main.ts --only=pg` in a process of its own.
//   npx tsx tools/bench/api/compare.ts <other build's apps/api/dist/main.js> [--pairs=5] [--seconds=6] [--warmup=2]
// The other build is a checkout of its own, built: e.g.
//   git worktree add /tmp/svc-base <commit> && cp -al node_modules /tmp/svc-base/ && (cd /tmp/svc-base && node tools/build.mjs)
// "this" is this checkout's build (made by main.ts's incremental build); "other" runs with --api=.
// Pairs alternate which build goes first (this/other, other/this, …).
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

const MAIN = fileURLToPath(new URL("./main.ts", import.meta.url));

interface Run {
  readonly checksPerSec: number;
  /** API CPU per check (ms). */
  readonly apiMs: number;
  readonly pgMs: number;
  readonly p99: number;
}

/** The figures of one run, read from main.ts's summary lines. */
export function parseRun(out: string): Run {
  const num = (s: string): number => Number(s.replace(/,/g, ""));
  const rate = /PostgreSQL: POST \/v1\/screen checks\/s\s+([\d,]+)/.exec(out);
  const cpu = /PostgreSQL: CPU ms per check \(API\+PG\+client\)\s+([\d.]+)\+([\d.]+)\+[\d.]+/.exec(out);
  const lat = /PostgreSQL: latency p50 \/ p99 ms\s+[\d,]+ \/ ([\d,]+)/.exec(out);
  const errors = /PostgreSQL: non-2xx \/ errors\s+([\d,]+) \/ (\d+)/.exec(out);
  if (!rate || !cpu || !lat || !errors) throw new Error(`no summary in the run's output:\n${out.slice(-2_000)}`);
  if (num(errors[1] as string) !== 0 || num(errors[2] as string) !== 0) throw new Error(`the run had non-2xx answers or errors:\n${out.slice(-2_000)}`);
  return { checksPerSec: num(rate[1] as string), apiMs: Number(cpu[1]), pgMs: Number(cpu[2]), p99: num(lat[1] as string) };
}

function runOnce(api: string | null, seconds: number, warmup: number): Promise<Run> {
  const args = ["--import", "tsx", MAIN, "--only=pg", `--seconds=${seconds}`, `--warmup=${warmup}`, ...(api ? [`--api=${api}`] : [])];
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    child.on("error", fail);
    child.on("exit", (code) => {
      if (code !== 0) return fail(new Error(`main.ts exited with ${code}:\n${out.slice(-2_000)}`));
      try {
        done(parseRun(out));
      } catch (e) {
        fail(e as Error);
      }
    });
  });
}

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const opt = (name: string, fallback: number): number => {
    const hit = argv.find((a) => a.startsWith(`--${name}=`));
    const v = hit ? Number(hit.slice(name.length + 3)) : fallback;
    if (!Number.isInteger(v) || v < 1) throw new Error(`--${name} must be a whole number ≥ 1`);
    return v;
  };
  const other = argv.find((a) => !a.startsWith("--"));
  if (!other || !existsSync(other)) {
    console.error("usage: npx tsx tools/bench/api/compare.ts <other build's apps/api/dist/main.js> [--pairs=5] [--seconds=6] [--warmup=2]");
    process.exit(2);
  }
  const pairs = opt("pairs", 5);
  const seconds = opt("seconds", 6);
  const warmup = opt("warmup", 2);
  console.log(`this build against ${resolve(other)}: ${pairs} pairs of ${warmup} + ${seconds} s runs of POST /v1/screen on PostgreSQL (tools/bench/api/main.ts --only=pg)`);
  const mine: Run[] = [];
  const theirs: Run[] = [];
  const show = (r: Run): string => `${r.checksPerSec.toLocaleString("en-US").padStart(6)} checks/s, API ${r.apiMs.toFixed(2)} ms, PG ${r.pgMs.toFixed(2)} ms per check, p99 ${r.p99} ms`;
  for (let i = 0; i < pairs; i++) {
    const order = i % 2 === 0 ? (["this", "other"] as const) : (["other", "this"] as const);
    for (const which of order) {
      const r = await runOnce(which === "this" ? null : resolve(other), seconds, warmup);
      (which === "this" ? mine : theirs).push(r);
      console.log(`pair ${i + 1}, ${which.padEnd(5)}: ${show(r)}`);
    }
  }
  const lower = mine.filter((r, i) => r.apiMs < (theirs[i] as Run).apiMs).length;
  const apiThis = mean(mine.map((r) => r.apiMs));
  const apiOther = mean(theirs.map((r) => r.apiMs));
  const perPair = mine.map((r, i) => (100 * (r.apiMs - (theirs[i] as Run).apiMs)) / (theirs[i] as Run).apiMs);
  console.log(`\nAPI CPU per check, mean: this ${apiThis.toFixed(3)} ms, other ${apiOther.toFixed(3)} ms (this ${(100 * (apiThis / apiOther - 1)).toFixed(1)} %; per pair ${perPair.map((p) => `${p >= 0 ? "+" : ""}${p.toFixed(0)} %`).join(", ")}); this lower in ${lower} of ${pairs} pairs`);
  console.log(`checks/s, mean: this ${Math.round(mean(mine.map((r) => r.checksPerSec))).toLocaleString("en-US")}, other ${Math.round(mean(theirs.map((r) => r.checksPerSec))).toLocaleString("en-US")}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
}
