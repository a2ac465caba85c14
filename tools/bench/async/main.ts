/**
 * Asynchronous checks end to end on PostgreSQL: HTTP submit (POST /v1/screen/async with a
 * webhook_url) → API → pg-boss → two worker processes (screen, verdict + outbox in one
 * transaction) → signed webhook → receiver. Reports jobs/s end to end and submit→webhook latency.
 *
 *   npx tsx tools/bench/async/main.ts [rate=1000] [seconds=20] [apis=1] [workers=2]
 *
 * Open loop: requests are sent at `rate` per second whatever the answers do, so a slow system
 * shows up as latency, not as a politely lower request rate. PostgreSQL: BENCH_DATABASE_URL or
 * TEST_DATABASE_URL (a throw-away database is created next to it and dropped).
 */
import http from "node:http";
import { randomBytes } from "node:crypto";
import os from "node:os";
import { systemClock } from "@svc/core";
import { apiKeyHint, formatApiKey, hashApiKey } from "@svc/server-ports";
import { openDataSource, TypeOrmAccountRepository, TypeOrmApiKeyRepository } from "@svc/persistence";
import { Webhook } from "standardwebhooks";
import { build } from "../../build.mjs";
import { BENCH_AUDIT_KEY, cpuSeconds, freshDatabase, percentile, postgresCpuSeconds, sleep, spawnApp, startReceiver, type Child } from "./support.js";

const [rate = 1000, seconds = 20, apis = 1, workers = 2] = process.argv.slice(2).map(Number);
const ENTITIES = ["paypa1.com", "example.com", "g00gle-login.net", "https://secure-paypal.com.verify-account.info/login", "shop.example.org", "micros0ft-support.com", "user@gmail.com", "+14155552671"];

async function main(): Promise<void> {
  await build({ quiet: true }); // the apps run compiled, as in production
  const db = await freshDatabase();
  const children: Child[] = [];
  const receiver = await startReceiver();
  try {
    // Accounts and keys: rate limits are per key (pro: 1,500/min), so the load is spread over many keys.
    const ds = await openDataSource({ url: db.url });
    const accounts = new TypeOrmAccountRepository(ds);
    const keyRepo = new TypeOrmApiKeyRepository(ds);
    const keys: string[] = [];
    const accountCount = 4;
    const keysNeeded = Math.max(8, Math.ceil((rate * 60) / 1_200));
    for (let a = 0; a < accountCount; a++) await accounts.create({ id: `acc_bench_${a}`, name: `bench ${a}`, plan: "pro" }, systemClock.now());
    for (let k = 0; k < keysNeeded; k++) {
      const key = formatApiKey(randomBytes(32));
      await keyRepo.create({ account_id: `acc_bench_${k % accountCount}`, key_hash: hashApiKey(key), prefix: apiKeyHint(key) }, systemClock.now());
      keys.push(key);
    }
    await ds.destroy();

    // Server mode: every API and worker seals audit records with the same key.
    const common = { DATABASE_URL: db.url, SVC_AUDIT_KEY: BENCH_AUDIT_KEY, LOG_LEVEL: "warn", SVC_WEBHOOK_ALLOWED_CIDRS: "127.0.0.1/32" };
    const ports: number[] = [];
    for (let i = 0; i < apis; i++) {
      const port = 18_500 + i;
      ports.push(port);
      // LOG_LEVEL=warn: no log line per request (readiness is polled instead).
      const api = spawnApp("api", { ...common, PORT: String(port), HOST: "127.0.0.1" });
      children.push(api);
      const end = Date.now() + 120_000;
      while (!(await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.ok, () => false))) {
        if (api.child.exitCode !== null || Date.now() > end) throw new Error(`the API did not start: ${api.output()}`);
        await sleep(100);
      }
    }
    for (let i = 0; i < workers; i++) {
      const w = spawnApp("worker", { ...common, LOG_LEVEL: "info" });
      children.push(w);
      await w.ready("svc worker started");
    }

    const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
    const submitAt = new Map<string, number>();
    const status = new Map<number, number>();
    let sent = 0;
    let answered = 0;
    const submit = (i: number): void => {
      const body = JSON.stringify({ entity_value: ENTITIES[i % ENTITIES.length], webhook_url: receiver.url, metadata: { i } });
      const started = performance.now();
      sent++;
      const req = http.request({ host: "127.0.0.1", port: ports[i % ports.length], path: "/v1/screen/async", method: "POST", agent, headers: { "content-type": "application/json", "x-api-key": keys[i % keys.length] as string, "content-length": Buffer.byteLength(body) } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          answered++;
          status.set(res.statusCode ?? 0, (status.get(res.statusCode ?? 0) ?? 0) + 1);
          if (res.statusCode === 202) submitAt.set((JSON.parse(Buffer.concat(chunks).toString()) as { job_id: string }).job_id, started);
        });
      });
      req.on("error", () => {
        answered++;
        status.set(-1, (status.get(-1) ?? 0) + 1);
      });
      req.end(body);
    };

    // Warm-up: JIT, connection pools, caches (not measured).
    for (let i = 0; i < 300; i++) {
      submit(i);
      if (i % 20 === 0) await sleep(20);
    }
    while (answered < sent) await sleep(20);
    const warm = new Set(submitAt.keys());
    const deadline = performance.now() + 30_000;
    while ([...warm].some((id) => !receiver.arrivals.has(id)) && performance.now() < deadline) await sleep(50);
    submitAt.clear();
    status.clear();
    sent = 0;
    answered = 0;

    // The measured run: open loop at `rate` per second.
    const cpu0 = os.cpus().map((c) => c.times);
    const roles = children.map((ch, i) => ({ name: i < apis ? `api ${i + 1}` : `worker ${i - apis + 1}`, pid: ch.child.pid as number }));
    const proc0 = { self: process.cpuUsage(), children: roles.map((r) => cpuSeconds(r.pid)), pg: postgresCpuSeconds() };
    const t0 = performance.now();
    const total = Math.round(rate * seconds);
    let next = 0;
    while (next < total) {
      const due = Math.min(total, Math.floor(((performance.now() - t0) / 1000) * rate));
      while (next < due) submit(10_000 + next++);
      await sleep(2);
    }
    const sendEnd = performance.now();
    while (answered < sent && performance.now() - sendEnd < 60_000) await sleep(20);
    const accepted = [...submitAt.keys()];
    const waitEnd = performance.now() + 120_000;
    while (accepted.some((id) => !receiver.arrivals.has(id)) && performance.now() < waitEnd) await sleep(50);
    const cpu1 = os.cpus().map((c) => c.times);
    const selfUse = process.cpuUsage(proc0.self);
    const cpuShare = [
      ...roles.map((r, i) => `${r.name} ${(cpuSeconds(r.pid) - (proc0.children[i] as number)).toFixed(1)}`),
      `postgres ${(postgresCpuSeconds() - proc0.pg).toFixed(1)}`,
      `bench client + receiver ${((selfUse.user + selfUse.system) / 1e6).toFixed(1)}`,
    ].join(", ");
    const delivered = accepted.filter((id) => receiver.arrivals.has(id));
    const lastArrival = Math.max(...delivered.map((id) => receiver.arrivals.get(id) as number));
    const latencies = delivered.map((id) => (receiver.arrivals.get(id) as number) - (submitAt.get(id) as number)).sort((a, b) => a - b);
    const busy = cpu1.reduce((acc, c, i) => {
      const b = cpu0[i] as typeof c;
      const idle = c.idle - b.idle;
      const all = c.user + c.nice + c.sys + c.irq + c.idle - (b.user + b.nice + b.sys + b.irq + b.idle);
      return acc + (all - idle) / all;
    }, 0) / cpu1.length;

    // Spot-check signatures with the reference verifier.
    const { default: pgc } = await import("pg");
    const c = new pgc.Client({ connectionString: db.url });
    await c.connect();
    const secrets = new Map((await c.query<{ account_id: string; secret: string }>(`SELECT account_id, secret FROM webhook_secrets`)).rows.map((r) => [r.account_id, r.secret]));
    const dupes = Number((await c.query<{ n: string }>(`SELECT count(*) - count(DISTINCT job_id) AS n FROM webhook_messages`)).rows[0]?.n ?? "0");
    if (process.env.BENCH_STATS) {
      const t = await c.query(`SELECT schemaname || '.' || relname AS t, seq_scan, seq_tup_read, idx_scan, n_tup_ins, n_tup_upd, n_tup_hot_upd, n_tup_del FROM pg_stat_user_tables WHERE seq_scan + coalesce(idx_scan, 0) > 0 ORDER BY seq_tup_read DESC LIMIT 20`);
      console.table(t.rows);
      const d = await c.query(`SELECT xact_commit, xact_rollback, tup_returned, tup_fetched FROM pg_stat_database WHERE datname = current_database()`);
      console.table(d.rows);
    }
    await c.end();
    let verified = 0;
    for (const s of receiver.samples) {
      const ok = [...secrets.values()].some((sec) => {
        try {
          new Webhook(sec).verify(s.body, s.headers);
          return true;
        } catch {
          return false;
        }
      });
      if (ok) verified++;
    }

    const elapsed = (lastArrival - t0) / 1000;
    const line = (k: string, v: string) => console.log(`${k.padEnd(38)} ${v}`);
    console.log(`node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? "?"}, load ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`);
    console.log(`PostgreSQL at ${new URL(db.url).host}; ${apis} API process(es), ${workers} worker process(es), ${keys.length} keys on ${accountCount} accounts`);
    line("offered rate", `${rate} jobs/s for ${seconds} s (${total} jobs)`);
    line("submit answers", [...status.entries()].map(([k, v]) => `${k === -1 ? "error" : k}: ${v}`).join(", "));
    line("submit rate achieved (202/s)", ((accepted.length / (sendEnd - t0)) * 1000).toFixed(0));
    line("webhooks received (jobs end to end)", `${delivered.length} / ${accepted.length}`);
    line("end-to-end throughput", `${(delivered.length / elapsed).toFixed(0)} jobs/s (first submit → last webhook: ${elapsed.toFixed(1)} s)`);
    // The rate jobs finish at once the pipeline is full: webhooks arriving from the second second
    // of sending to its end (the figure above also counts the last jobs' latency as time).
    const steadyFrom = t0 + 1_000;
    const steadyArrivals = delivered.filter((id) => {
      const at = receiver.arrivals.get(id) as number;
      return at >= steadyFrom && at < sendEnd;
    }).length;
    const steadyRate = (steadyArrivals / (sendEnd - steadyFrom)) * 1000;
    line("end-to-end while submitting (after 1 s)", `${steadyRate.toFixed(0)} jobs/s`);
    line("submit → webhook latency p50", `${percentile(latencies, 50).toFixed(0)} ms`);
    line("submit → webhook latency p90", `${percentile(latencies, 90).toFixed(0)} ms`);
    line("submit → webhook latency p99", `${percentile(latencies, 99).toFixed(0)} ms`);
    line("submit → webhook latency max", `${(latencies.at(-1) ?? NaN).toFixed(0)} ms`);
    line("webhook requests (incl. retries)", String(receiver.count));
    line("outbox rows per job > 1", String(dupes));
    line("signatures spot-checked (standardwebhooks)", `${verified} / ${receiver.samples.length} verified`);
    line("CPU busy (all cores, whole machine)", `${(busy * 100).toFixed(0)} %`);
    line("CPU seconds during the run", cpuShare);
    const acceptedRate = (accepted.length / (sendEnd - t0)) * 1000;
    const lost = accepted.length - delivered.length;
    line("target: ≥ 1,000 jobs/s accepted", acceptedRate >= 1000 ? "met" : "not met");
    line("target: ≥ 500 jobs/s end to end, p99 ≤ 2 s", steadyRate >= 500 && percentile(latencies, 99) <= 2000 ? "met" : "not met");
    line("target: 0 lost, 0 doubled", lost === 0 && dupes === 0 ? "met" : `not met (${lost} lost, ${dupes} doubled)`);
  } finally {
    for (const ch of children) ch.child.kill("SIGTERM");
    await Promise.all(children.map((ch) => Promise.race([ch.exited, sleep(35_000)])));
    for (const ch of children) if (ch.child.exitCode === null) ch.child.kill("SIGKILL");
    await receiver.close();
    await db.drop();
  }
}

main().then(() => process.exit(0), (e: unknown) => {
  console.error(e);
  process.exit(1);
});
