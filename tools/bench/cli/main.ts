// `svc batch` throughput, as users run it (a real process through bin/svc.js).
//   npx tsx tools/bench/cli/main.ts [entities=100000] [--no-remote]
// Embedded: N generated domains → JSONL and CSV, on one thread and on two. Remote: `svc serve` on
// a fresh PGlite directory, then `svc batch --url` for as many entities as the pro plan allows in
// a minute (1,400 of 1,500: the per-minute rate limit applies to the CLI like any client).
// Baseline printed beside them: the core's screenBatch in this process, no I/O, same inputs.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createScreener, screenBatch } from "@svc/core";
import { apiKeyFromSecret } from "@svc/server-ports";

const args = process.argv.slice(2);
const N = Number(args.find((a) => /^\d+$/.test(a)) ?? 100_000);
const remote = !args.includes("--no-remote");
const repo = resolve(fileURLToPath(new URL("../../..", import.meta.url)));
const BIN = join(repo, "apps", "cli", "bin", "svc.js");
const dir = mkdtempSync(join(tmpdir(), "svc-bench-cli-"));

const words = ["secure", "login", "account", "wallet", "support", "verify", "app", "my", "online", "shop", "pay", "mail", "cloud", "news"];
const tlds = ["com", "net", "org", "io", "xyz", "top", "co.uk", "de", "app", "online", "shop", "info"];
const pick = <T>(a: readonly T[], i: number): T => a[i % a.length] as T;
const domain = (i: number): string => `${i % 3 === 0 ? "www." : ""}${pick(words, i)}${i % 5 === 0 ? "-" : ""}${pick(words, i * 7 + 3)}${i}.${pick(tlds, i * 13)}`;
const domains = Array.from({ length: N }, (_, i) => (i % 1000 === 0 ? "paypa1.com" : domain(i)));
const file = join(dir, "domains.txt");
writeFileSync(file, `${domains.join("\n")}\n`);

const fmt = (x: number): string => Math.round(x).toLocaleString("en-US");
const line = (name: string, rate: number, extra = ""): void => console.log(`${name.padEnd(44)} ${fmt(rate).padStart(9)} /s${extra ? `  ${extra}` : ""}`);

function run(argv: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stderr: string; seconds: number }> {
  const started = performance.now();
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, ...argv], { env: { ...process.env, NO_COLOR: "1", ...env }, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", fail);
    child.on("close", (code) => done({ code, stderr, seconds: (performance.now() - started) / 1000 }));
  });
}

/** The summary line's own rate (screening only) and the process's (start-up included). */
async function batch(name: string, argv: string[], count: number, env: Record<string, string> = {}): Promise<number> {
  const r = await run(argv, env);
  const m = /lines: ([\d,]+) screened.*\([\d.]+ s, ([\d,]+)\/s/.exec(r.stderr);
  if (r.code !== 0 || !m) throw new Error(`${name} failed (${r.code}): ${r.stderr.slice(-500)}`);
  const screened = Number((m[1] as string).replace(/,/g, ""));
  if (screened !== count) throw new Error(`${name}: ${screened} screened, expected ${count}`);
  const rate = Number((m[2] as string).replace(/,/g, ""));
  line(name, rate, `(${fmt(count / r.seconds)}/s with start-up; ${r.seconds.toFixed(1)} s wall)`);
  return rate;
}

console.log(`node ${process.version}, ${cpus()[0]?.model.trim() ?? "cpu"} × ${cpus().length} (load ${loadavg()[0]?.toFixed(1)}), ${fmt(N)} domains (${(statSync(file).size / 1e6).toFixed(1)} MB)`);
console.log("-- baseline: @svc/core screenBatch in this process, chunks of 100, no I/O");
let baseline = 0;
{
  const s = createScreener();
  const sample = domains.slice(0, Math.min(N, 20_000));
  // Two passes, the second measured: the JIT has compiled the hot path by then.
  for (let pass = 0; pass < 2; pass++) {
    const t = performance.now();
    for (let i = 0; i < sample.length; i += 100) await screenBatch(sample.slice(i, i + 100).map((v) => ({ entity_value: v })), s.deps);
    baseline = sample.length / ((performance.now() - t) / 1000);
  }
  line(`screenBatch (${fmt(sample.length)} domains)`, baseline);
}
console.log("-- svc batch, embedded (in-process, bundled data)");
try {
  const jsonl = await batch("svc batch → JSONL, 1 thread", ["batch", file, "--out", join(dir, "out.jsonl"), "--workers", "1"], N);
  await batch("svc batch → CSV, 1 thread", ["batch", file, "--out", join(dir, "out.csv"), "--workers", "1"], N);
  await batch("svc batch → JSONL, 2 worker threads", ["batch", file, "--out", join(dir, "out2.jsonl"), "--workers", "2"], N);
  console.log(`svc batch JSONL (1 thread) / core baseline: ${(jsonl / baseline).toFixed(2)}×`);
  if (remote) {
    console.log("-- svc batch, remote (svc serve on PGlite, same machine; every check is recorded)");
    const secret = "bench-bootstrap-secret-0123456789abcdef";
    const server = spawn(process.execPath, [BIN, "serve", "--port", "0", "--host", "127.0.0.1", "--data-dir", join(dir, "data")], { env: { ...process.env, SVC_BOOTSTRAP_KEY: secret, LOG_LEVEL: "warn" }, stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    const url = await new Promise<string>((ok, fail) => {
      server.stderr.setEncoding("utf8").on("data", (d: string) => {
        err += d;
        const m = /listening on (http:\/\/\S+) /.exec(err);
        if (m) ok(m[1] as string);
      });
      server.once("exit", (c) => fail(new Error(`serve exited ${c}: ${err}`)));
    });
    const count = 1400;
    writeFileSync(join(dir, "remote.txt"), `${domains.slice(0, count).join("\n")}\n`);
    try {
      await batch(`svc batch --url (${fmt(count)}, 4 requests of 100 in flight)`, ["batch", join(dir, "remote.txt"), "--out", join(dir, "remote.jsonl")], count, { SVC_URL: url, SVC_API_KEY: apiKeyFromSecret(secret) });
    } finally {
      server.kill("SIGINT");
      await new Promise((r) => server.once("exit", r));
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
