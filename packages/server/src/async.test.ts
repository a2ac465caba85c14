import { AuditRecordSchema, ProblemSchema, VerdictSchema } from "@svc/contracts";
import { Webhook } from "standardwebhooks";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { RunningWorker } from "@svc/jobs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@svc/runtime";
import { startEmbeddedWorker } from "./embedded-worker.js";
import { startTestApi, type TestApi } from "./test-support.js";

const engines = (["pglite", "postgres"] as const).filter((e) => e === "pglite" || process.env.TEST_DATABASE_URL);

interface Hook {
  headers: Record<string, string>;
  body: string;
}

/** A loopback HTTP server that records what it receives. */
async function listen(host: string, answer = 204): Promise<{ url: string; port: number; hits: Hook[]; close(): Promise<void> }> {
  const hits: Hook[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      hits.push({ headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])), body: Buffer.concat(chunks).toString("utf8") });
      res.statusCode = answer;
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, host, r));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://${host}:${port}/hook`, port, hits, close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))) };
}

async function waitFor<T>(what: string, fn: () => Promise<T | null | undefined | false>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.each(engines)("asynchronous checks and webhooks on %s", (engine) => {
  const env = { SVC_WEBHOOK_ALLOWED_CIDRS: "127.0.0.2/32" };
  let api: TestApi;
  let worker: RunningWorker | null = null;
  let a = { key: "", accountId: "" };
  let b = { key: "", accountId: "" };
  let receiver: Awaited<ReturnType<typeof listen>>;
  let canary: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    api = await startTestApi(engine, env);
    a = await api.account("pro");
    b = await api.account("pro");
    // 127.0.0.2 plays a public receiver (listed in SVC_WEBHOOK_ALLOWED_CIDRS); the canary on 127.0.0.1 must never be called.
    receiver = await listen("127.0.0.2");
    canary = await listen("127.0.0.1");
  }, 120_000);
  afterAll(async () => {
    await worker?.stop(5_000);
    await api?.close();
    await receiver?.close();
    await canary?.close();
  });
  const startWorker = async () => {
    worker ??= await startEmbeddedWorker(api.runtime, loadConfig({ ...env, SVC_DATA_DIR: "memory://" }), { pollIntervalMs: 100 });
  };

  const post = (path: string, body: unknown, headers: Record<string, string> = {}, key = a.key) =>
    api.app.request(path, { method: "POST", headers: { "content-type": "application/json", "x-api-key": key, ...headers }, body: JSON.stringify(body) });
  const get = (path: string, key = a.key) => api.app.request(path, { headers: { "x-api-key": key } });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- loose JSON in assertions
  const job = async (id: string, key = a.key) => (await (await get(`/v1/jobs/${id}`, key)).json()) as Record<string, any>;
  const finished = (id: string) => waitFor(`job ${id}`, async () => {
    const j = await job(id);
    return ["succeeded", "failed", "canceled"].includes(j.status as string) && (!j.webhook || ["delivered", "failed", "disabled", "canceled"].includes(j.webhook.status as string)) ? j : null;
  });
  const expectProblem = async (res: Response, status: number, code: string) => {
    expect(res.status).toBe(status);
    expect(res.headers.get("content-type")).toContain("application/problem+json");
    const p = ProblemSchema.parse(await res.json());
    expect(p.code).toBe(code);
    return p;
  };

  it("accepts a check with 202, Location and a poll URL; the job is queued until a worker takes it", async () => {
    const res = await post("/v1/screen/async", { entity_value: "paypa1.com", metadata: { order: "A-1" } });
    expect(res.status).toBe(202);
    const body = (await res.json()) as { job_id: string; status: string; poll_url: string };
    expect(body).toEqual({ job_id: expect.stringMatching(/^job_[0-9a-z]{26}$/), status: "queued", poll_url: `/v1/jobs/${body.job_id}` });
    expect(res.headers.get("location")).toBe(body.poll_url);
    expect(res.headers.get("ratelimit-limit")).toBe("1500");
    const j = await job(body.job_id);
    expect(j).toMatchObject({ id: body.job_id, status: "queued", started_at: null, finished_at: null, result: null, error: null, webhook: null, metadata: { order: "A-1" }, request: { entity_value: "paypa1.com" } });
  });

  it("cancels a queued job (then 409); the worker skips it: no verdict, no webhook", async () => {
    const { job_id } = (await (await post("/v1/screen/async", { entity_value: "example.org", webhook_url: receiver.url })).json()) as { job_id: string };
    const res = await post(`/v1/jobs/${job_id}/cancel`, {});
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: "canceled", webhook: { status: "canceled" } });
    await expectProblem(await post(`/v1/jobs/${job_id}/cancel`, {}), 409, "job.not_cancelable");
    await expectProblem(await post(`/v1/jobs/${job_id}/cancel`, {}, {}, b.key), 404, "job.not_found");
    await startWorker();
    const probe = (await (await post("/v1/screen/async", { entity_value: "example.net" })).json()) as { job_id: string };
    await finished(probe.job_id);
    expect(await job(job_id)).toMatchObject({ status: "canceled", result: null, check_id: null });
    expect(receiver.hits.filter((h) => h.body.includes(job_id))).toHaveLength(0);
  });

  it("runs the check: the job succeeds with the verdict, stored as the audit record check_id", async () => {
    await startWorker();
    const { job_id } = (await (await post("/v1/screen/async", { entity_value: "paypa1.com" })).json()) as { job_id: string };
    const j = await finished(job_id);
    expect(j.status).toBe("succeeded");
    expect(j.started_at).toBeTruthy();
    expect(new Date(j.finished_at as string).getTime()).toBeGreaterThanOrEqual(new Date(j.started_at as string).getTime());
    const verdict = VerdictSchema.parse(j.result);
    expect(verdict).toMatchObject({ id: job_id.replace(/^job_/, "chk_"), entity: { type: "domain", value: "paypa1.com" }, risk_level: "high" });
    expect(j.check_id).toBe(verdict.id);
    const audit = AuditRecordSchema.parse(await (await get(`/v1/audit/${verdict.id}`)).json());
    expect(audit.verdict).toEqual(verdict);
    expect(audit.actor).toEqual({ key_id: expect.any(String), channel: "api" });
    // The chain stays intact with records from both the API and the worker.
    await post("/v1/screen", { entity_value: "example.com" });
    expect(await api.runtime.services.checks.verifyChain(a.accountId)).toMatchObject({ ok: true });
  });

  it("shows a job only to its own account (404 otherwise, as for an unknown id)", async () => {
    const { job_id } = (await (await post("/v1/screen/async", { entity_value: "example.com" })).json()) as { job_id: string };
    await expectProblem(await get(`/v1/jobs/${job_id}`, b.key), 404, "job.not_found");
    await expectProblem(await get(`/v1/jobs/job_00000000000000000000000000`), 404, "job.not_found");
    await expectProblem(await get(`/v1/jobs/${job_id}`, "svc_live_nope"), 401, "auth.invalid_key");
  });

  it("honours Idempotency-Key: a replay returns the same job; another body is 422; concurrent duplicates make one job", async () => {
    const key = `idem-${Date.now()}`;
    const first = await post("/v1/screen/async", { entity_value: "g00gle.com" }, { "idempotency-key": key });
    const again = await post("/v1/screen/async", { entity_value: "g00gle.com" }, { "idempotency-key": key });
    expect(first.status).toBe(202);
    expect(again.status).toBe(202);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    const one = (await first.json()) as { job_id: string };
    expect(await again.json()).toEqual(one);
    expect(again.headers.get("location")).toBe(`/v1/jobs/${one.job_id}`);
    await expectProblem(await post("/v1/screen/async", { entity_value: "other.com" }, { "idempotency-key": key }), 422, "idempotency.mismatch");
    const key2 = `idem-c-${Date.now()}`;
    const many = await Promise.all(Array.from({ length: 20 }, () => post("/v1/screen/async", { entity_value: "micros0ft.com" }, { "idempotency-key": key2 })));
    const ok = many.filter((r) => r.status === 202);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(many.every((r) => r.status === 202 || r.status === 409)).toBe(true);
    const ids = new Set(await Promise.all(ok.map(async (r) => ((await r.json()) as { job_id: string }).job_id)));
    expect(ids.size).toBe(1);
    const [{ n }] = (await api.runtime.dataSource.query(`SELECT count(*)::int AS n FROM async_jobs WHERE account_id = $1 AND request->>'entity_value' = 'micros0ft.com'`, [a.accountId])) as [{ n: number }];
    expect(n).toBe(1);
  });

  it("costs one check, like a synchronous one", async () => {
    const r1 = await post("/v1/screen/async", { entity_value: "example.com" });
    const r2 = await post("/v1/screen/async", { entity_value: "example.com" });
    expect(Number(r1.headers.get("ratelimit-remaining")) - Number(r2.headers.get("ratelimit-remaining"))).toBe(1);
  });

  it.each([
    ["an unrecognised value", { entity_value: "hello there" }, "entity.unrecognized"],
    ["a type that contradicts the value", { entity_value: "https://x.com/a", type: "domain" }, "entity.type_mismatch"],
    ["an unknown field", { entity_value: "a.com", colour: "red" }, "request.invalid"],
    ["metadata over 4 KB", { entity_value: "a.com", metadata: { x: "y".repeat(5000) } }, "request.invalid"],
    ["a webhook_url that is not a URL", { entity_value: "a.com", webhook_url: "nope" }, "webhook.url_invalid"],
  ])("refuses %s with 422 at submission", async (_name, body, code) => {
    await expectProblem(await post("/v1/screen/async", body), 422, code);
  });

  it("refuses 30+ SSRF webhook URLs with 422 webhook.url_* and never calls them (canary hits: 0)", async () => {
    const P = canary.port;
    const payloads = [
      `http://127.0.0.1:${P}/`, `https://127.0.0.1:${P}/`, `http://localhost:${P}/`, `http://127.1:${P}/`, `http://2130706433:${P}/`,
      `http://0x7f000001:${P}/`, `http://0177.0.0.1:${P}/`, `http://0x7f.1:${P}/`, `http://017700000001:${P}/`, `http://１２７.０.０.１:${P}/`,
      `http://[::1]:${P}/`, `http://[::ffff:127.0.0.1]:${P}/`, `http://[::ffff:7f00:1]:${P}/`, `http://[::127.0.0.1]:${P}/`, `http://0.0.0.0:${P}/`,
      `http://[::]:${P}/`, `http://127.0.0.3:${P}/`, `http://169.254.169.254/latest/meta-data/`, `http://[::ffff:a9fe:a9fe]/`, `http://[fd00:ec2::254]/`,
      `http://100.64.0.1/`, `http://10.0.0.1/`, `http://172.16.0.1/`, `http://192.168.1.1/`, `http://[fe80::1]/`, `http://[fc00::1]/`,
      `http://[64:ff9b::7f00:1]:${P}/`, `http://[2002:7f00:1::]:${P}/`, `http://198.18.0.1/`, `http://224.0.0.1/`, `http://good@127.0.0.2:${receiver.port}/`,
      `file:///etc/passwd`, `gopher://127.0.0.1:${P}/_x`, `ftp://127.0.0.1:${P}/`, `javascript:alert(1)`,
    ];
    expect(payloads.length).toBeGreaterThanOrEqual(30);
    for (const webhook_url of payloads) {
      const res = await post("/v1/screen/async", { entity_value: "example.com", webhook_url });
      expect(res.status, webhook_url).toBe(422);
      const p = ProblemSchema.parse(await res.json());
      expect(["webhook.url_forbidden", "webhook.url_invalid"], webhook_url).toContain(p.code);
      expect(p.errors?.[0]?.pointer).toBe("/webhook_url");
    }
    await new Promise((r) => setTimeout(r, 300));
    expect(canary.hits).toHaveLength(0);
  });

  it("delivers a signed screen.completed webhook that verifies with the account's secret; the job shows the delivery", async () => {
    await startWorker();
    const secret = (await (await get("/v1/webhook-secret")).json()) as { secret: string; previous_expires_at: string | null };
    expect(secret.secret).toMatch(/^whsec_/);
    const res = await post("/v1/screen/async", { entity_value: "paypa1.com", webhook_url: receiver.url, metadata: { ref: "w-1" } });
    const { job_id } = (await res.json()) as { job_id: string };
    const j = await finished(job_id);
    expect(j.webhook).toMatchObject({ url: receiver.url, status: "delivered", attempts: 1, event: "screen.completed", last_status_code: 204 });
    expect(j.webhook.deliveries).toEqual([expect.objectContaining({ attempt: 1, outcome: "delivered", status_code: 204 })]);
    const hook = receiver.hits.find((h) => h.body.includes(job_id)) as Hook;
    expect(hook.headers["webhook-id"]).toBe(j.webhook.message_id);
    const payload = new Webhook(secret.secret).verify(hook.body, hook.headers) as { type: string; timestamp: string; data: Record<string, unknown> };
    expect(payload).toMatchObject({ type: "screen.completed", data: { job_id, status: "succeeded", check_id: j.check_id, metadata: { ref: "w-1" }, request: { entity_value: "paypa1.com" } } });
    expect(payload.data.result).toEqual(j.result);
    // Another account's secret does not verify it.
    const other = (await (await get("/v1/webhook-secret", b.key)).json()) as { secret: string };
    expect(() => new Webhook(other.secret).verify(hook.body, hook.headers)).toThrow();
  });

  it("sends screen.failed when a job cannot be screened", async () => {
    await startWorker();
    // Entities are validated at submission; a job stored some other way (or under an older parser) can still fail.
    const id = api.runtime.services.ids.next("job");
    await api.runtime.services.async.jobs.submit({ id, account_id: a.accountId, key_id: null, request: { entity_value: "definitely not an entity" }, webhook_url: receiver.url, metadata: null, created_at: new Date() });
    const j = await finished(id);
    expect(j).toMatchObject({ status: "failed", result: null, check_id: null, error: { code: "entity.unrecognized" }, webhook: { status: "delivered", event: "screen.failed" } });
    const hook = receiver.hits.find((h) => h.body.includes(id)) as Hook;
    expect(JSON.parse(hook.body)).toMatchObject({ type: "screen.failed", data: { job_id: id, status: "failed", error: { code: "entity.unrecognized" } } });
  });

  it("rotates the secret: for 24 h both sign, and receivers holding either one verify", async () => {
    await startWorker();
    const before = (await (await get("/v1/webhook-secret")).json()) as { secret: string };
    const res = await post("/v1/webhook-secret/rotate", {}, { "idempotency-key": `rot-${Date.now()}` });
    expect(res.status).toBe(200);
    const after = (await res.json()) as { secret: string; previous_expires_at: string };
    expect(after.secret).not.toBe(before.secret);
    expect(new Date(after.previous_expires_at).getTime() - Date.now()).toBeGreaterThan(23.9 * 3_600_000);
    expect(((await (await get("/v1/webhook-secret")).json()) as { secret: string }).secret).toBe(after.secret);
    const { job_id } = (await (await post("/v1/screen/async", { entity_value: "example.com", webhook_url: receiver.url })).json()) as { job_id: string };
    await finished(job_id);
    const hook = receiver.hits.find((h) => h.body.includes(job_id)) as Hook;
    expect(hook.headers["webhook-signature"]?.split(" ")).toHaveLength(2);
    new Webhook(before.secret).verify(hook.body, hook.headers);
    new Webhook(after.secret).verify(hook.body, hook.headers);
  });
});

describe("embedded default (npm start): the process killed with SIGKILL while working", () => {
  it("loses no job and doubles none: after a restart every job succeeds with exactly one verdict", async () => {
    const { spawn } = await import("node:child_process");
    const { mkdtempSync, rmSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const { fileURLToPath } = await import("node:url");
    const { openDataSource } = await import("@svc/persistence");
    const dir = mkdtempSync(join(tmpdir(), "svc-kill-"));
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const base = `http://127.0.0.1:${port}`;
    const env = { ...process.env, SVC_DATA_DIR: dir, SVC_BOOTSTRAP_KEY: "k".repeat(40), PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "warn" };
    const start = async (pauseMs = 0) => {
      const child = spawn(process.execPath, ["apps/api/dist/main.js"], { cwd: fileURLToPath(new URL("../../../", import.meta.url)), env: { ...env, SVC_WORKER_PAUSE_MS: String(pauseMs) }, stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      child.stdout?.on("data", (d: Buffer) => (out += d.toString()));
      child.stderr?.on("data", (d: Buffer) => (out += d.toString()));
      const exited = new Promise((r) => child.once("exit", r));
      await waitFor("the API", async () => {
        if (child.exitCode !== null) throw new Error(out);
        return fetch(`${base}/healthz`).then((r) => r.ok, () => false);
      }, 90_000);
      return { child, exited, out: () => out };
    };
    try {
      const first = await start(1_500);
      const key = first.out().match(/svc_live_\w+/)?.[0] as string;
      expect(key).toBeTruthy();
      const submit = async (i: number) => ((await (await fetch(`${base}/v1/screen/async`, { method: "POST", headers: { "x-api-key": key, "content-type": "application/json" }, body: JSON.stringify({ entity_value: `shop${i}-paypa1.com` }) })).json()) as { job_id: string }).job_id;
      const jobs = await Promise.all(Array.from({ length: 60 }, (_, i) => submit(i)));
      const status = async (id: string) => ((await (await fetch(`${base}/v1/jobs/${id}`, { headers: { "x-api-key": key } })).json()) as { status: string }).status;
      // Kill while the in-process worker holds a batch it has not finished (it pauses 1.5 s per batch here).
      await waitFor("a running job", async () => (await Promise.all(jobs.map(status))).includes("running"), 60_000);
      first.child.kill("SIGKILL");
      await first.exited;
      const ds = await openDataSource({ dataDir: join(dir, "pgdata") });
      const [atKill] = (await ds.query(`SELECT count(*) FILTER (WHERE status = 'running')::int AS running, count(*) FILTER (WHERE status = 'queued')::int AS queued FROM async_jobs`)) as [{ running: number; queued: number }];
      await ds.destroy();
      // The data directory survived the kill, with a job taken and unfinished.
      expect(atKill.running).toBeGreaterThan(0);
      const second = await start();
      await waitFor("every job", async () => (await Promise.all(jobs.map(status))).every((s) => s === "succeeded"), 120_000);
      second.child.kill("SIGTERM");
      await second.exited;
      const after = await openDataSource({ dataDir: join(dir, "pgdata") });
      const [c] = (await after.query(`SELECT count(*)::int AS n, count(DISTINCT id)::int AS d FROM checks WHERE id = ANY($1)`, [jobs.map((j) => j.replace("job_", "chk_"))])) as [{ n: number; d: number }];
      const [all] = (await after.query(`SELECT count(*)::int AS n FROM checks WHERE account_id = 'acc_admin'`)) as [{ n: number }];
      await after.destroy();
      expect(c).toEqual({ n: jobs.length, d: jobs.length });
      expect(all.n).toBe(jobs.length);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
