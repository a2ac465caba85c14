/**
 * Crash safety of the async worker under load: a real worker process (apps/worker, PostgreSQL +
 * pg-boss) is killed with SIGKILL while it holds jobs it has not finished, then replaced; again
 * and again. At the end: every job final (0 lost), a succeeded job has exactly one verdict and
 * one outbox row (0 run twice to completion), every job's webhook arrived, and every delivery of
 * one job carried the same `webhook-id` (receivers dedupe on it); the audit chain verifies.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { randomIds, systemClock } from "@svc/core";
import { createCheckQueues, openPgBossJobQueue, TypeOrmAsyncJobStore } from "@svc/jobs";
import { HmacAuditKeyring, openDataSource, TypeOrmCheckRepository } from "@svc/persistence";
import { freshDatabase, sleep, spawnApp } from "../bench/async/support.js";
import { line, SOAK_AUDIT_KEY } from "./support.js";

export interface WorkerKillOptions {
  readonly kills: number;
  readonly perRound?: number;
  /** Job lease (s): a killed worker's jobs are taken again after it. */
  readonly lease?: number;
  /** Workers started after the kills to finish the remaining jobs (default 2). */
  readonly finishers?: number;
  readonly quiet?: boolean;
}

export interface WorkerKillResult {
  readonly ok: boolean;
  readonly jobs: number;
  readonly killedMidRun: number;
  readonly lost: number;
  readonly doubled: number;
  readonly undelivered: number;
  readonly webhookIdsChanged: number;
  readonly seconds: number;
}

const ENTITIES = ["paypa1.com", "example.com", "g00gle-login.net", "micros0ft-support.com", "user@gmail.com", "+14155552671", "shop.example.org", "https://secure-paypal.com.verify-account.info/login"];

/** The integrator's endpoint: 204 to everything, notes each job's webhook-id values and how many deliveries. */
async function receiver() {
  const ids = new Map<string, Set<string>>();
  let count = 0;
  const server = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8").on("data", (d: string) => (body += d));
    req.on("end", () => {
      count++;
      try {
        const job = (JSON.parse(body) as { data: { job_id: string } }).data.job_id;
        const set = ids.get(job) ?? new Set<string>();
        set.add(String(req.headers["webhook-id"]));
        ids.set(job, set);
      } catch {
        // not a job event: counted only
      }
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    ids,
    count: () => count,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

export async function workerKill(o: WorkerKillOptions): Promise<WorkerKillResult> {
  const perRound = o.perRound ?? 8;
  const lease = o.lease ?? 2;
  const db = await freshDatabase("svc_soak_kill");
  const hooks = await receiver();
  const ds = await openDataSource({ url: db.url });
  const sender = await openPgBossJobQueue({ connectionString: db.url });
  await createCheckQueues(sender, lease);
  const store = new TypeOrmAsyncJobStore(ds, sender);
  const ids = randomIds();
  const account = "acc_soak_kill";
  const env = { DATABASE_URL: db.url, SVC_AUDIT_KEY: SOAK_AUDIT_KEY, LOG_LEVEL: "info", SVC_WEBHOOK_ALLOWED_CIDRS: "127.0.0.1/32", SVC_JOB_LEASE_SECONDS: String(lease), SVC_JOB_MAINTENANCE_SECONDS: "1", SVC_WORKER_BATCH_SIZE: "4" };
  const jobs: string[] = [];
  const killed = new Set<string>();
  const t0 = Date.now();
  const finishers: ReturnType<typeof spawnApp>[] = [];
  try {
    for (let k = 0; k < o.kills; k++) {
      const before = new Map(((await ds.query(`SELECT id, attempts FROM async_jobs WHERE id = ANY($1)`, [jobs])) as { id: string; attempts: number }[]).map((r) => [r.id, r.attempts]));
      // A pause between taking a batch and screening it widens the window a kill lands in.
      const w = spawnApp("worker", { ...env, SVC_WORKER_PAUSE_MS: String(300 + Math.floor(Math.random() * 700)) });
      try {
        await w.ready("svc worker started");
        const round: string[] = [];
        for (let i = 0; i < perRound; i++) {
          const id = ids.next("job");
          round.push(id);
          await store.submit({ id, account_id: account, key_id: null, request: { entity_value: ENTITIES[(k + i) % ENTITIES.length] as string }, webhook_url: hooks.url, metadata: { round: k }, created_at: systemClock.now() });
        }
        jobs.push(...round);
        const end = Date.now() + 30_000;
        let running: { id: string }[] = [];
        while (running.length === 0 && Date.now() < end) {
          const rows = (await ds.query(`SELECT id, status, attempts FROM async_jobs WHERE id = ANY($1)`, [jobs])) as { id: string; status: string; attempts: number }[];
          running = rows.filter((r) => r.status === "running" && r.attempts > (before.get(r.id) ?? 0));
          if (running.length === 0) await sleep(10);
        }
        for (const r of running) killed.add(r.id);
      } finally {
        w.child.kill("SIGKILL");
        await w.exited;
      }
      if (!o.quiet) process.stdout.write(`\rkill ${k + 1}/${o.kills}: ${killed.size} job(s) killed mid-run so far   `);
    }
    if (!o.quiet) console.log();
    for (let i = 0; i < (o.finishers ?? 2); i++) finishers.push(spawnApp("worker", env));
    await Promise.all(finishers.map((f) => f.ready("svc worker started")));
    const deadline = Date.now() + 120_000;
    for (;;) {
      const [row] = (await ds.query(
        `SELECT count(*) FILTER (WHERE j.status IN ('succeeded', 'failed'))::int AS done, count(m.id) FILTER (WHERE m.status = 'delivered')::int AS delivered
           FROM async_jobs j LEFT JOIN webhook_messages m ON m.job_id = j.id WHERE j.id = ANY($1)`, [jobs])) as [{ done: number; delivered: number }];
      if ((row.done === jobs.length && row.delivered === jobs.length && jobs.every((j) => hooks.ids.has(j))) || Date.now() > deadline) break;
      await sleep(100);
    }
    const one = async (sql: string, params: unknown[]) => ((await ds.query(sql, params)) as { n: number }[])[0]?.n ?? -1;
    const succeeded = await one(`SELECT count(*)::int AS n FROM async_jobs WHERE id = ANY($1) AND status = 'succeeded'`, [jobs]);
    const gaveUp = await one(`SELECT count(*)::int AS n FROM async_jobs WHERE id = ANY($1) AND status = 'failed'`, [jobs]);
    const verdicts = await one(`SELECT count(*)::int AS n FROM checks WHERE account_id = $1`, [account]);
    const outbox = await one(`SELECT count(*)::int AS n FROM webhook_messages WHERE job_id = ANY($1)`, [jobs]);
    const chain = await new TypeOrmCheckRepository(ds, new HmacAuditKeyring(SOAK_AUDIT_KEY)).verifyChain(account);
    const undelivered = jobs.filter((j) => !hooks.ids.has(j)).length;
    const webhookIdsChanged = [...hooks.ids.values()].filter((s) => s.size > 1).length;
    const r: WorkerKillResult = {
      ok: killed.size > 0 && succeeded + gaveUp === jobs.length && verdicts === succeeded && outbox === jobs.length && undelivered === 0 && webhookIdsChanged === 0 && chain.ok,
      jobs: jobs.length, killedMidRun: killed.size, lost: jobs.length - succeeded - gaveUp, doubled: Math.max(0, verdicts - succeeded) + Math.max(0, outbox - jobs.length), undelivered, webhookIdsChanged, seconds: (Date.now() - t0) / 1000,
    };
    if (!o.quiet) {
      line("SIGKILLs of a worker holding unfinished jobs", `${o.kills} (${r.seconds.toFixed(0)} s in all)`);
      line("jobs submitted / killed mid-run", `${r.jobs} / ${r.killedMidRun}`);
      line("jobs succeeded / given up / lost", `${succeeded} / ${gaveUp} / ${r.lost}`);
      line("run twice to completion (extra verdicts + outbox rows)", r.doubled);
      line("webhooks: jobs not delivered / deliveries received", `${undelivered} / ${hooks.count()}`);
      line("jobs whose deliveries carried different webhook-ids", webhookIdsChanged);
      line("audit chain of the account", chain.ok ? `intact (${chain.checked} records)` : JSON.stringify(chain));
      line("result", r.ok ? "PASS" : "FAIL");
    }
    return r;
  } finally {
    for (const f of finishers) f.child.kill("SIGTERM");
    await Promise.all(finishers.map((f) => f.exited));
    await sender.stop({ timeoutMs: 1_000 });
    await ds.destroy();
    await hooks.close();
    await db.drop();
  }
}
