/**
 * Crash safety of the worker, repeated: a real worker process (apps/worker, PostgreSQL + pg-boss)
 * is killed with SIGKILL while it holds jobs it has not finished, then replaced; again and
 * again. At the end every job must have succeeded with exactly one verdict (audit record) and
 * one outbox row, its webhook delivered, the account's audit chain intact.
 *
 *   npx tsx tools/bench/async/kill.ts [kills=50] [jobsPerRound=8] [leaseSeconds=2]
 */
import { randomIds, systemClock } from "@svc/core";
import { createCheckQueues, openPgBossJobQueue, TypeOrmAsyncJobStore, TypeOrmWebhookSecretStore } from "@svc/jobs";
import { HmacAuditKeyring, openDataSource, TypeOrmCheckRepository } from "@svc/persistence";
import { Webhook } from "standardwebhooks";
import { build } from "../../build.mjs";
import { BENCH_AUDIT_KEY, freshDatabase, sleep, spawnApp, startReceiver } from "./support.js";


const [kills = 50, perRound = 8, lease = 2] = process.argv.slice(2).map(Number);
const ENTITIES = ["paypa1.com", "example.com", "g00gle-login.net", "micros0ft-support.com", "user@gmail.com", "+14155552671", "shop.example.org", "https://secure-paypal.com.verify-account.info/login"];

async function main(): Promise<void> {
  await build({ quiet: true }); // the apps run compiled, as in production
  const db = await freshDatabase("svc_kill");
  const receiver = await startReceiver(1);
  const ds = await openDataSource({ url: db.url });
  const sender = await openPgBossJobQueue({ connectionString: db.url });
  await createCheckQueues(sender, lease);
  const store = new TypeOrmAsyncJobStore(ds, sender);
  const ids = randomIds();
  const account = "acc_kill";
  const env = { DATABASE_URL: db.url, SVC_AUDIT_KEY: BENCH_AUDIT_KEY, LOG_LEVEL: "info", SVC_WEBHOOK_ALLOWED_CIDRS: "127.0.0.1/32", SVC_JOB_LEASE_SECONDS: String(lease), SVC_JOB_MAINTENANCE_SECONDS: "1", SVC_WORKER_BATCH_SIZE: "4" };
  const jobs: string[] = [];
  const killedAt = new Map<string, number>();
  const t0 = Date.now();
  try {
    for (let k = 0; k < kills; k++) {
      // A pause between taking a batch and screening it widens the window a kill lands in.
      // Jobs still "running" from the previous kill do not count: wait for a run this worker started.
      const before = new Map(((await ds.query(`SELECT id, attempts FROM async_jobs WHERE id = ANY($1)`, [jobs])) as { id: string; attempts: number }[]).map((r) => [r.id, r.attempts]));
      const w = spawnApp("worker", { ...env, SVC_WORKER_PAUSE_MS: String(300 + Math.floor(Math.random() * 700)) });
      await w.ready("svc worker started");
      const round: string[] = [];
      for (let i = 0; i < perRound; i++) {
        const id = ids.next("job");
        round.push(id);
        await store.submit({ id, account_id: account, key_id: null, request: { entity_value: ENTITIES[(k + i) % ENTITIES.length] as string }, webhook_url: receiver.url, metadata: { round: k }, created_at: systemClock.now() });
      }
      jobs.push(...round);
      const end = Date.now() + 30_000;
      let running: { id: string }[] = [];
      while (running.length === 0 && Date.now() < end) {
        const rows = (await ds.query(`SELECT id, status, attempts FROM async_jobs WHERE id = ANY($1)`, [jobs])) as { id: string; status: string; attempts: number }[];
        running = rows.filter((r) => r.status === "running" && r.attempts > (before.get(r.id) ?? 0));
        if (running.length === 0) await sleep(10);
      }
      w.child.kill("SIGKILL");
      await w.exited;
      const at = Date.now();
      for (const r of running) if (!killedAt.has(r.id)) killedAt.set(r.id, at);
      process.stdout.write(`\rkill ${k + 1}/${kills}: ${running.length} job(s) mid-run   `);
    }
    console.log();
    const finishers = [spawnApp("worker", env), spawnApp("worker", env)];
    await Promise.all(finishers.map((f) => f.ready("svc worker started")));
    const deadline = Date.now() + 180_000;
    for (;;) {
      const [row] = (await ds.query(
        `SELECT count(*) FILTER (WHERE j.status IN ('succeeded', 'failed'))::int AS done, count(m.id) FILTER (WHERE m.status = 'delivered')::int AS delivered
           FROM async_jobs j LEFT JOIN webhook_messages m ON m.job_id = j.id WHERE j.id = ANY($1)`, [jobs])) as [{ done: number; delivered: number }];
      if ((row.done === jobs.length && row.delivered === jobs.length) || Date.now() > deadline) break;
      await sleep(200);
    }
    for (const f of finishers) f.child.kill("SIGTERM");
    const exits = await Promise.all(finishers.map((f) => f.exited));

    const checkIds = jobs.map((j) => j.replace("job_", "chk_"));
    const one = async (sql: string, params: unknown[]) => ((await ds.query(sql, params)) as { n: number }[])[0]?.n ?? -1;
    const succeeded = await one(`SELECT count(*)::int AS n FROM async_jobs WHERE id = ANY($1) AND status = 'succeeded'`, [jobs]);
    const gaveUp = await one(`SELECT count(*)::int AS n FROM async_jobs WHERE id = ANY($1) AND status = 'failed'`, [jobs]);
    const maxRuns = await one(`SELECT max(attempts)::int AS n FROM async_jobs WHERE id = ANY($1)`, [jobs]);
    const verdicts = await one(`SELECT count(*)::int AS n FROM checks WHERE account_id = $1`, [account]);
    const verdictsOfJobs = await one(`SELECT count(DISTINCT id)::int AS n FROM checks WHERE id = ANY($1)`, [checkIds]);
    const outbox = await one(`SELECT count(*)::int AS n FROM webhook_messages WHERE job_id = ANY($1)`, [jobs]);
    const delivered = await one(`SELECT count(*)::int AS n FROM webhook_messages WHERE job_id = ANY($1) AND status = 'delivered'`, [jobs]);
    const runs = await one(`SELECT sum(attempts)::int AS n FROM async_jobs WHERE id = ANY($1)`, [jobs]);
    const chain = await new TypeOrmCheckRepository(ds, new HmacAuditKeyring(BENCH_AUDIT_KEY)).verifyChain(account);
    const secret = (await new TypeOrmWebhookSecretStore(ds).current(account, new Date())).secret;
    let verified = 0;
    for (const s of receiver.samples) {
      try {
        new Webhook(secret).verify(s.body, s.headers);
        verified++;
      } catch {
        // counted below
      }
    }
    const line = (k: string, v: string | number) => console.log(`${k.padEnd(44)} ${v}`);
    line("SIGKILLs of a worker holding unfinished jobs", `${kills} (${((Date.now() - t0) / 1000).toFixed(0)} s in all)`);
    line("jobs submitted", jobs.length);
    line("distinct jobs killed mid-run", killedAt.size);
    line("job runs in all (started, incl. killed ones)", `${runs} (most runs of one job: ${maxRuns})`);
    line("jobs succeeded / given up (after 6 runs)", `${succeeded} / ${gaveUp} (lost: ${jobs.length - succeeded - gaveUp})`);
    line("verdicts stored (doubled: stored − succeeded)", `${verdicts} (doubled: ${verdicts - succeeded}; succeeded jobs with a verdict: ${verdictsOfJobs})`);
    line("outbox rows (doubled)", `${outbox} (doubled: ${outbox - jobs.length})`);
    line("webhooks delivered", `${delivered} of ${jobs.length}; requests received ${receiver.count} (receivers dedupe on webhook-id)`);
    line("distinct jobs whose webhook arrived", receiver.arrivals.size);
    line("signatures spot-checked", `${verified} / ${receiver.samples.length} verified`);
    line("audit chain of the account", chain.ok ? `intact (${chain.checked} records)` : JSON.stringify(chain));
    line("finishing workers exited (SIGTERM)", exits.join(", "));
    // Every job final; a succeeded one with exactly one verdict; every job with exactly one outbox row (completed or failed event).
    const ok = succeeded + gaveUp === jobs.length && verdicts === succeeded && verdictsOfJobs === succeeded && outbox === jobs.length && delivered === jobs.length && chain.ok && killedAt.size > 0;
    line("result", ok ? "PASS: no job lost, none doubled" : "FAIL");
    if (!ok) process.exitCode = 1;
  } finally {
    await sender.stop({ timeoutMs: 1_000 });
    await ds.destroy();
    await receiver.close();
    await db.drop();
  }
}

main().then(() => process.exit(process.exitCode ?? 0), (e: unknown) => {
  console.error(e);
  process.exit(1);
});
