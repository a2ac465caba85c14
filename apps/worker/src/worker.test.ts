import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { combineIntelStores, defaultImpersonationIndex, defaultReference, InMemoryIntelIndex, officialIntel, randomIds, systemClock, type IdGenerator, type ScreeningDeps } from "@svc/core";
import { type JobQueue } from "@svc/server-ports";
import {
  checkJobHandler, createCheckQueues, openPgBossJobQueue, type PgBossJobQueue, SqlJobQueue, startWorker, transactionScoped, TypeOrmAsyncJobStore, TypeOrmWebhookSecretStore,
  type CheckWorkerDeps, type RunningWorker,
} from "@svc/jobs";
import { HmacAuditKeyring, openDataSource, scratchDatabase, TypeOrmCheckRepository, TypeOrmIntelStore } from "@svc/persistence";
import { Webhook } from "standardwebhooks";
import type { DataSource, EntityManager } from "typeorm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const PG_URL = process.env.TEST_DATABASE_URL;
const engines = (["pglite", "postgres"] as const).filter((e) => e === "pglite" || PG_URL);

const freshDatabase = () => scratchDatabase(PG_URL as string);
const AUDIT_KEY = "the worker tests' audit key, 32+ characters";
const auditKeys = new HmacAuditKeyring(AUDIT_KEY);

async function receiver(): Promise<{ url: string; hits: { headers: Record<string, string>; body: string }[]; close(): Promise<void> }> {
  const hits: { headers: Record<string, string>; body: string }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      hits.push({ headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])), body: Buffer.concat(chunks).toString() });
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, hits, close: () => new Promise((r) => (server.closeAllConnections(), server.close(() => r()))) };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function waitFor<T>(what: string, fn: () => Promise<T | null | undefined | false>, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

const screeningOf = (ds: DataSource, ids: IdGenerator): ScreeningDeps => ({
  reference: defaultReference(), impersonation: defaultImpersonationIndex(),
  intel: combineIntelStores(InMemoryIntelIndex.from(officialIntel()), new TypeOrmIntelStore(ds)), clock: systemClock, ids,
});
const count = async (ds: DataSource, sql: string, params: unknown[]) => ((await ds.query(sql, params)) as { n: number }[])[0]?.n ?? -1;
const jobRow = async (ds: DataSource, id: string) =>
  ((await ds.query(`SELECT status, attempts, check_id, started_at, finished_at FROM async_jobs WHERE id = $1`, [id])) as { status: string; attempts: number; check_id: string | null; started_at: Date; finished_at: Date | null }[])[0];

describe.each(engines)("check worker on %s (in process)", (engine) => {
  let ds: DataSource;
  let queue: JobQueue<EntityManager>;
  let store: TypeOrmAsyncJobStore;
  let db: { url: string; drop(): Promise<void> } | null = null;
  const ids = randomIds();
  const account = `acc_w_${randomBytes(3).toString("hex")}`;
  beforeAll(async () => {
    if (engine === "postgres") db = await freshDatabase();
    ds = await openDataSource(db ? { url: db.url } : {});
    queue = await newQueue();
    store = new TypeOrmAsyncJobStore(ds, queue);
  }, 120_000);
  afterAll(async () => {
    await queue?.stop({ timeoutMs: 2_000 });
    await ds?.destroy();
    await db?.drop();
  });
  /** A worker's own queue instance (stopping a worker stops its queue), as in another process. */
  const newQueue = async (): Promise<JobQueue<EntityManager>> => {
    const q = db ? await openPgBossJobQueue({ connectionString: db.url, supervise: true, maintenanceIntervalSeconds: 1 }) : new SqlJobQueue(ds, { maintenanceIntervalMs: 200 });
    await createCheckQueues(q, 2);
    return q;
  };
  const submit = async (entity = "paypa1.com", webhook: string | null = null) => {
    const id = ids.next("job");
    await store.submit({ id, account_id: account, key_id: "key_1", request: { entity_value: entity }, webhook_url: webhook, metadata: null, created_at: new Date() });
    return id;
  };
  const deps = (over: Partial<CheckWorkerDeps> = {}): CheckWorkerDeps => ({
    ds, screening: screeningOf(ds, ids), clock: systemClock, ids, checksIn: (m) => new TypeOrmCheckRepository(transactionScoped(m), auditKeys), ...over,
  });

  it("stores verdict, job state and outbox row in one transaction: when the outbox insert fails, nothing is stored and the job runs again", async () => {
    // An outbox id that already exists makes the outbox insert fail after the verdict was written in the same transaction.
    await ds.query(`INSERT INTO webhook_messages (id, job_id, account_id, url, event_type, body, status, created_at) VALUES ('msg_taken', 'job_other', 'x', 'http://x', 'e', '{}', 'delivered', now())`);
    let sabotage = true;
    let failures = 0;
    const flakyIds: IdGenerator = { next: (p) => (p === "msg" && sabotage ? (failures++, "msg_taken") : ids.next(p)) };
    const hook = await receiver();
    const id = await submit("paypa1.com", hook.url);
    const worker = await startWorker({ ds, queue: await newQueue(), screening: screeningOf(ds, ids), clock: systemClock, ids: flakyIds, checksIn: deps().checksIn, allowedCidrs: "127.0.0.1/32", leaseSeconds: 2, pollIntervalMs: 100 });
    try {
      await waitFor("the failed attempt", async () => failures > 0);
      await sleep(200);
      // Rolled back: no audit record, no outbox row, the job not finished.
      expect(await count(ds, `SELECT count(*)::int AS n FROM checks WHERE id = $1`, [id.replace("job_", "chk_")])).toBe(0);
      expect(await count(ds, `SELECT count(*)::int AS n FROM webhook_messages WHERE job_id = $1`, [id])).toBe(0);
      expect((await jobRow(ds, id))?.status).toBe("running");
      sabotage = false;
      await waitFor("the retry", async () => (await jobRow(ds, id))?.status === "succeeded");
      await waitFor("the webhook", async () => hook.hits.length === 1);
    } finally {
      await worker.stop(5_000);
      await hook.close();
    }
    expect(await count(ds, `SELECT count(*)::int AS n FROM checks WHERE id = $1`, [id.replace("job_", "chk_")])).toBe(1);
    expect(await count(ds, `SELECT count(*)::int AS n FROM webhook_messages WHERE job_id = $1`, [id])).toBe(1);
    expect((await jobRow(ds, id))?.attempts).toBeGreaterThanOrEqual(2);
  });

  it("a job run by two workers at once (a lease taken over) commits exactly one verdict and one outbox row", async () => {
    const id = await submit("g00gle.com", "http://127.0.0.1:9/never");
    const handler = checkJobHandler(deps({ pauseMs: 300 }));
    const job = { id: "q1", queue: "screen-checks", data: { job_id: id }, retryCount: 0, retryLimit: 5 };
    // The second run starts while the first is paused: it takes the fencing token over.
    const first = handler([job]);
    await sleep(100);
    const second = handler([{ ...job, retryCount: 1 }]);
    await Promise.all([first, second]);
    expect(await jobRow(ds, id)).toMatchObject({ status: "succeeded", attempts: 2, check_id: id.replace("job_", "chk_") });
    expect(await count(ds, `SELECT count(*)::int AS n FROM checks WHERE id = $1`, [id.replace("job_", "chk_")])).toBe(1);
    expect(await count(ds, `SELECT count(*)::int AS n FROM webhook_messages WHERE job_id = $1`, [id])).toBe(1);
    // A third, late run of the finished job changes nothing.
    await handler([job]);
    expect((await jobRow(ds, id))?.attempts).toBe(2);
  });

  it("graceful stop: finishes the jobs in flight, then takes no more", async () => {
    const d = deps();
    const worker: RunningWorker = await startWorker({ ds, screening: d.screening, clock: d.clock, ids, checksIn: d.checksIn, queue: await newQueue(), pauseMs: 800, leaseSeconds: 30, pollIntervalMs: 100 });
    const jobs = [await submit("example.com"), await submit("example.org")];
    await waitFor("a running job", async () => (await Promise.all(jobs.map((j) => jobRow(ds, j)))).some((r) => r?.status === "running"));
    const started = Date.now();
    await worker.stop(30_000);
    expect(Date.now() - started).toBeLessThan(30_000);
    const states = await Promise.all(jobs.map((j) => jobRow(ds, j)));
    // Whatever was taken finished; nothing was left half-done.
    expect(states.every((s) => s?.status === "succeeded" || s?.status === "queued")).toBe(true);
    expect(states.some((s) => s?.status === "succeeded")).toBe(true);
    const late = await submit("example.net");
    await sleep(500);
    expect((await jobRow(ds, late))?.status).toBe("queued");
  });
});

describe.skipIf(!PG_URL)("worker processes on PostgreSQL", () => {
  let db: { url: string; drop(): Promise<void> };
  let ds: DataSource;
  let sender: PgBossJobQueue;
  let store: TypeOrmAsyncJobStore;
  let hook: Awaited<ReturnType<typeof receiver>>;
  const ids = randomIds();
  let account = `acc_p_${randomBytes(3).toString("hex")}`;
  const children = new Set<ChildProcess>();
  beforeAll(async () => {
    db = await freshDatabase();
    ds = await openDataSource({ url: db.url });
    sender = await openPgBossJobQueue({ connectionString: db.url });
    await createCheckQueues(sender, 2);
    store = new TypeOrmAsyncJobStore(ds, sender);
    hook = await receiver();
  }, 120_000);
  afterAll(async () => {
    for (const c of children) c.kill("SIGKILL");
    await sender?.stop({ timeoutMs: 1_000 });
    await hook?.close();
    await ds?.destroy();
    await db?.drop();
  });

  const spawnWorker = (env: Record<string, string>) => {
    const child = spawn(process.execPath, ["apps/worker/dist/main.js"], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: db.url, SVC_AUDIT_KEY: AUDIT_KEY, LOG_LEVEL: "info", SVC_WEBHOOK_ALLOWED_CIDRS: "127.0.0.1/32", SVC_JOB_LEASE_SECONDS: "2", SVC_JOB_MAINTENANCE_SECONDS: "1", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.add(child);
    let out = "";
    child.stdout?.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr?.on("data", (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((r) => child.once("exit", (code) => (children.delete(child), r(code))));
    const ready = waitFor("the worker to start", async () => out.includes("svc worker started") || (child.exitCode !== null && Promise.reject(new Error(out))), 60_000);
    return { child, exited, ready, output: () => out };
  };
  const submit = async (entity: string) => {
    const id = ids.next("job");
    await store.submit({ id, account_id: account, key_id: null, request: { entity_value: entity }, webhook_url: hook.url, metadata: null, created_at: new Date() });
    return id;
  };
  const statuses = async (jobIds: string[]) => (await ds.query(`SELECT id, status FROM async_jobs WHERE id = ANY($1)`, [jobIds])) as { id: string; status: string }[];

  it("SIGTERM: stops taking jobs, finishes the ones in flight, exits 0", async () => {
    const w = spawnWorker({ SVC_WORKER_PAUSE_MS: "1500" });
    await w.ready;
    // One JSON object per line, each key once (the logger already names the pid).
    const started = w.output().split("\n").find((l) => l.includes("svc worker started")) ?? "";
    expect(started.match(/"pid":/gu)).toHaveLength(1);
    const jobs = [await submit("paypa1.com"), await submit("example.com")];
    await waitFor("running jobs", async () => (await statuses(jobs)).some((s) => s.status === "running"));
    const t = Date.now();
    w.child.kill("SIGTERM");
    expect(await w.exited).toBe(0);
    expect(Date.now() - t).toBeLessThan(30_000);
    expect(w.output()).toContain("svc worker stopped");
    const after = await statuses(jobs);
    expect(after.every((s) => s.status === "succeeded" || s.status === "queued")).toBe(true);
    expect(after.filter((s) => s.status === "running")).toEqual([]);
    // Anything left queued is done by the next worker.
    const next = spawnWorker({});
    await next.ready;
    await waitFor("all jobs", async () => (await statuses(jobs)).every((s) => s.status === "succeeded"));
    next.child.kill("SIGTERM");
    expect(await next.exited).toBe(0);
  }, 120_000);

  it("SIGKILL mid-job, 3 times: every job ends succeeded with exactly one verdict and one outbox row, its webhook delivered", async () => {
    account = `acc_k_${randomBytes(3).toString("hex")}`;
    const jobs: string[] = [];
    const killedWhileRunning = new Set<string>();
    for (let round = 0; round < 3; round++) {
      const w = spawnWorker({ SVC_WORKER_PAUSE_MS: "1000", SVC_WORKER_BATCH_SIZE: "5" });
      await w.ready;
      const batch = await Promise.all(["paypa1.com", "example.com", "g00gle.com", "example.org"].map((e) => submit(e)));
      jobs.push(...batch);
      const running = await waitFor("a job mid-run", async () => {
        const r = (await statuses(batch)).filter((s) => s.status === "running");
        return r.length > 0 ? r : null;
      });
      w.child.kill("SIGKILL");
      await w.exited;
      for (const r of running) killedWhileRunning.add(r.id);
    }
    // Two fresh workers at once finish everything, the killed jobs after their lease.
    const a = spawnWorker({});
    const b = spawnWorker({});
    await Promise.all([a.ready, b.ready]);
    await waitFor("every job", async () => (await statuses(jobs)).filter((s) => s.status === "succeeded").length === jobs.length, 90_000);
    await waitFor("every webhook", async () => ((await ds.query(`SELECT count(*)::int AS n FROM webhook_messages WHERE job_id = ANY($1) AND status = 'delivered'`, [jobs])) as { n: number }[])[0]?.n === jobs.length, 60_000);
    a.child.kill("SIGTERM");
    b.child.kill("SIGTERM");
    expect(await a.exited).toBe(0);
    expect(await b.exited).toBe(0);

    expect(killedWhileRunning.size).toBeGreaterThanOrEqual(3);
    const checkIds = jobs.map((j) => j.replace("job_", "chk_"));
    expect(await count(ds, `SELECT count(*)::int AS n FROM checks WHERE id = ANY($1)`, [checkIds])).toBe(jobs.length);
    expect(await count(ds, `SELECT count(*)::int AS n FROM checks WHERE account_id = $1`, [account])).toBe(jobs.length);
    expect(await count(ds, `SELECT count(*)::int AS n FROM webhook_messages WHERE job_id = ANY($1)`, [jobs])).toBe(jobs.length);
    // A killed job ran again only after its lease (2 s) ran out, never next to the dead run.
    for (const id of killedWhileRunning) {
      const r = await jobRow(ds, id);
      expect(r?.attempts).toBeGreaterThanOrEqual(2);
      expect(new Date(r?.finished_at as Date).getTime() - new Date(r?.started_at as Date).getTime()).toBeGreaterThanOrEqual(2_000);
    }
    // Receivers get each webhook at least once, all verifiable; they dedupe on webhook-id.
    const secret = (await new TypeOrmWebhookSecretStore(ds).current(account, new Date())).secret;
    const mine = hook.hits.filter((h) => jobs.some((j) => h.body.includes(j)));
    for (const h of mine) new Webhook(secret).verify(h.body, h.headers);
    expect(new Set(mine.map((h) => (JSON.parse(h.body) as { data: { job_id: string } }).data.job_id)).size).toBe(jobs.length);
    expect(await new TypeOrmCheckRepository(ds, auditKeys).verifyChain(account)).toMatchObject({ ok: true, checked: jobs.length });
  }, 240_000);
});
