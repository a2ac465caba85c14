// Scale-out on one PostgreSQL database: two API processes and two worker processes, real child
// processes of this machine. What one replica counts, keys, chains or queues, the other sees: a
// per-minute cap and a monthly quota hold across both APIs, an Idempotency-Key sent to both runs
// once, the audit chain written through both verifies, and async jobs submitted to both are run
// once each by the two workers and their webhooks delivered (signed).
import { spawn, type ChildProcess } from "node:child_process";
import { createHmac, timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { openDataSource, scratchDatabase } from "@svc/persistence";
import { apiKeyFromSecret } from "@svc/server-ports";
import type { DataSource } from "typeorm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_AUDIT_KEY } from "./test-support.js";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const DATABASE = process.env.TEST_DATABASE_URL;
const BOOTSTRAP_SECRET = "the scale-out test's bootstrap secret, 32+ characters";
const ADMIN_KEY = apiKeyFromSecret(BOOTSTRAP_SECRET);
/** Small plans, so the limits are reached with few requests. */
const PLANS = { scale_minute: { per_minute: 24, per_month: null }, scale_month: { per_minute: null, per_month: 40 } };

interface Proc {
  readonly name: string;
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;
  output(): string;
}

const procs: Proc[] = [];

/** A process of the repository as it is started in production (`node apps/<app>/dist/main.js`, compiled once before the tests by tools/test-build.ts). */
function start(name: string, entry: string, env: Record<string, string>): Proc {
  const child = spawn(process.execPath, [entry], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  const keep = (d: Buffer): void => void (out = (out + d.toString()).slice(-200_000));
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const p: Proc = { name, child, exited: new Promise((r) => child.once("exit", (code) => r(code))), output: () => out };
  procs.push(p);
  return p;
}

async function until<T>(what: string, p: Proc | null, probe: () => T | null | Promise<T | null>, ms = 120_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== null) return v;
    if (p && p.child.exitCode !== null) throw new Error(`${p.name} exited (${p.child.exitCode}) while waiting for ${what}:\n${p.output().slice(-4000)}`);
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}${p ? `:\n${p.output().slice(-4000)}` : ""}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown>;
  readonly headers: http.IncomingHttpHeaders;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function call(port: number, method: string, path: string, key: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, method, path, agent, headers: { "x-api-key": key, ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers } }, (res) => {
      let text = "";
      res.setEncoding("utf8").on("data", (d: string) => (text += d));
      res.on("end", () => {
        let parsed: Record<string, unknown> = {};
        try {
          parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
        } catch {
          parsed = { text };
        }
        resolve({ status: res.statusCode ?? 0, body: parsed, headers: res.headers });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

interface Hook {
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

/** The integrator's webhook endpoint: answers 204 and keeps what arrived. */
async function receiver(): Promise<{ url: string; hooks: Hook[]; close(): Promise<void> }> {
  const hooks: Hook[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8").on("data", (d: string) => (body += d));
    req.on("end", () => {
      hooks.push({ headers: req.headers, body });
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, hooks, close: () => new Promise((r) => (server.closeAllConnections(), server.close(() => r()))) };
}

/** Standard Webhooks: `v1,` + base64 HMAC-SHA-256 of `id.timestamp.body` under the secret's bytes. */
function signedBy(secret: string, h: Hook): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = createHmac("sha256", key).update(`${String(h.headers["webhook-id"])}.${String(h.headers["webhook-timestamp"])}.${h.body}`).digest();
  return String(h.headers["webhook-signature"] ?? "").split(" ").some((s) => {
    const got = Buffer.from(s.replace(/^v1,/, ""), "base64");
    return got.length === expected.length && timingSafeEqual(got, expected);
  });
}

const portOf = (p: Proc): number | null => {
  const m = /"port":(\d+),[^\n]*"svc API listening"/.exec(p.output());
  return m ? Number(m[1]) : null;
};

if (!DATABASE) process.stderr.write("packages/server/src/scale-out.test.ts: skipped: TEST_DATABASE_URL is not set (two API and two worker processes need a PostgreSQL server; CI's PostgreSQL run sets it)\n");

describe.skipIf(!DATABASE)(`two API processes and two workers on one PostgreSQL database${DATABASE ? "" : " (skipped: set TEST_DATABASE_URL to a PostgreSQL server to run it)"}`, () => {
  let db: { url: string; drop(): Promise<void> };
  let ds: DataSource;
  let a = 0;
  let b = 0;
  let hooks: Awaited<ReturnType<typeof receiver>>;
  const apis = (): [number, number] => [a, b];

  beforeAll(async () => {
    db = await scratchDatabase(DATABASE as string, "svc_scaleout");
    hooks = await receiver();
    const env = {
      DATABASE_URL: db.url, SVC_AUDIT_KEY: TEST_AUDIT_KEY, SVC_BOOTSTRAP_KEY: BOOTSTRAP_SECRET, SVC_PLANS: JSON.stringify(PLANS),
      SVC_WEBHOOK_ALLOWED_CIDRS: "127.0.0.1/32", LOG_LEVEL: "info", PORT: "0", HOST: "127.0.0.1",
    };
    // The first API migrates the database (and installs the queue's schema); then the others start together.
    const first = start("api-a", "apps/api/dist/main.js", env);
    a = await until("api-a to listen", first, () => portOf(first), 300_000);
    const second = start("api-b", "apps/api/dist/main.js", env);
    const workers = [start("worker-1", "apps/worker/dist/main.js", env), start("worker-2", "apps/worker/dist/main.js", env)];
    b = await until("api-b to listen", second, () => portOf(second), 300_000);
    for (const w of workers) await until(`${w.name} to start`, w, () => (w.output().includes("svc worker started") ? true : null), 300_000);
    ds = await openDataSource({ url: db.url });
  }, 900_000);

  afterAll(async () => {
    await Promise.all(procs.map(async (p) => {
      if (p.child.exitCode === null) p.child.kill("SIGTERM");
      const code = await Promise.race([p.exited, new Promise((r) => setTimeout(r, 40_000, "timeout"))]);
      if (code === "timeout") p.child.kill("SIGKILL");
    }));
    await ds?.destroy();
    await hooks?.close();
    await db?.drop();
    agent.destroy();
  }, 120_000);

  /** A new customer account on `plan` and its key, made by the operator through API A. */
  async function customer(name: string, plan: string): Promise<{ key: string; account: string }> {
    const r = await call(a, "POST", "/v1/keys", ADMIN_KEY, { new_account: name, plan });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return { key: r.body.key as string, account: r.body.account_id as string };
  }

  const checksOf = async (account: string): Promise<number> => Number(((await ds.query(`SELECT count(*)::int AS n FROM checks WHERE account_id = $1`, [account])) as { n: number }[])[0]?.n);

  it("the per-minute cap is one count across both APIs", async () => {
    const c = await customer("minute", "scale_minute");
    // Twice the cap, at once, alternating between the two APIs.
    const answers = await Promise.all(Array.from({ length: 48 }, (_, i) => call(apis()[i % 2] as number, "POST", "/v1/screen", c.key, { entity_value: `shop-${i}.minute-cap-test.com` })));
    const ok = answers.filter((x) => x.status === 200);
    const refused = answers.filter((x) => x.status === 429);
    expect(ok.length + refused.length, JSON.stringify(answers.find((x) => x.status !== 200 && x.status !== 429))).toBe(48);
    expect(ok).toHaveLength(24);
    for (const r of refused) expect(r.body.code).toBe("rate_limited");
    // Each API got 24 of the 48: with a cap per process both would have let all 24 through (48 in
    // all). Which API answered the 24 allowed ones depends on which one the machine ran first.
    for (const port of apis()) {
      const u = await call(port, "GET", "/v1/usage", c.key);
      expect(u.body).toMatchObject({ plan: "scale_minute", minute: { used: 24, remaining: 0 }, month: { used: 24 } });
    }
    expect(await checksOf(c.account)).toBe(24);
  });

  it("the monthly quota is one count across both APIs: every check counted once, the total the sum of both", async () => {
    const c = await customer("month", "scale_month");
    // 50 single checks and 5 batches of 4 (70 checks) against a quota of 40, spread over both APIs.
    const singles = Array.from({ length: 50 }, (_, i) => call(apis()[i % 2] as number, "POST", "/v1/screen", c.key, { entity_value: `single-${i}.month-quota-test.com` }));
    const batches = Array.from({ length: 5 }, (_, i) => call(apis()[(i + 1) % 2] as number, "POST", "/v1/screen/batch", c.key, { entities: Array.from({ length: 4 }, (_, j) => ({ entity_value: `batch-${i}-${j}.month-quota-test.com` })) }));
    const [s, bt] = [await Promise.all(singles), await Promise.all(batches)];
    for (const r of [...s, ...bt]) {
      expect([200, 429], JSON.stringify(r.body)).toContain(r.status);
      if (r.status === 429) expect(r.body.code).toBe("quota_exceeded");
    }
    const charged = s.filter((r) => r.status === 200).length + 4 * bt.filter((r) => r.status === 200).length;
    // Single checks were left over whatever order the requests were served in: the quota is used up exactly.
    expect(charged).toBe(40);
    for (const port of apis()) {
      const u = await call(port, "GET", "/v1/usage", c.key);
      expect(u.body).toMatchObject({ plan: "scale_month", month: { used: 40, remaining: 0 } });
    }
    expect(await checksOf(c.account)).toBe(40);
  });

  it("an Idempotency-Key sent to both APIs at once runs one check, charged once; every answer is that check", async () => {
    const c = await customer("idempotent", "pro");
    const send = async (port: number, path: string, body: unknown, key: string): Promise<Answer> => {
      for (let i = 0; ; i++) {
        const r = await call(port, "POST", path, c.key, body, { "idempotency-key": key });
        // A request holding the key answers 409 (Retry-After: 1) until it completes.
        if (r.status !== 409 || r.body.code !== "idempotency.in_flight" || i > 100) return r;
        await new Promise((res) => setTimeout(res, 200));
      }
    };
    const sync = await Promise.all(Array.from({ length: 10 }, (_, i) => send(apis()[i % 2] as number, "/v1/screen", { entity_value: "paypa1.com" }, "scale-out-sync-1")));
    for (const r of sync) expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(new Set(sync.map((r) => r.body.id)).size).toBe(1);
    const asyncs = await Promise.all(Array.from({ length: 10 }, (_, i) => send(apis()[i % 2] as number, "/v1/screen/async", { entity_value: "paypa1.com" }, "scale-out-async-1")));
    for (const r of asyncs) expect(r.status, JSON.stringify(r.body)).toBe(202);
    expect(new Set(asyncs.map((r) => r.body.job_id)).size).toBe(1);
    const jobs = (await ds.query(`SELECT count(*)::int AS n FROM async_jobs WHERE account_id = $1`, [c.account])) as { n: number }[];
    expect(jobs[0]?.n).toBe(1);
    const job = asyncs[0]?.body.job_id as string;
    await until("the idempotent job to finish", null, async () => ((await call(b, "GET", `/v1/jobs/${job}`, c.key)).body.status === "succeeded" ? true : null), 60_000);
    // One synchronous check and the job's: two, charged once each.
    expect(await checksOf(c.account)).toBe(2);
    expect((await call(a, "GET", "/v1/usage", c.key)).body).toMatchObject({ month: { used: 2 } });
  });

  it("async jobs submitted to both APIs run once each on the two workers; every webhook is delivered once, signed", async () => {
    const c = await customer("jobs", "pro");
    const secret = (await call(b, "GET", "/v1/webhook-secret", c.key)).body.secret as string;
    expect(secret).toMatch(/^whsec_/);
    const accepted = await Promise.all(Array.from({ length: 40 }, (_, i) => call(apis()[i % 2] as number, "POST", "/v1/screen/async", c.key, { entity_value: `job-${i}.scale-out-test.com`, webhook_url: hooks.url, metadata: { n: i } })));
    for (const r of accepted) expect(r.status, JSON.stringify(r.body)).toBe(202);
    const ids = accepted.map((r) => r.body.job_id as string);
    expect(new Set(ids).size).toBe(40);
    const mine = (): Hook[] => hooks.hooks.filter((h) => ids.some((id) => h.body.includes(id)));
    await until("every job's webhook", null, () => (mine().length >= 40 ? true : null), 150_000);
    // Give a second delivery of any of them the time to show up.
    await new Promise((r) => setTimeout(r, 1_500));
    const rows = (await ds.query(`SELECT id, status, attempts, check_id FROM async_jobs WHERE account_id = $1`, [c.account])) as { id: string; status: string; attempts: number; check_id: string | null }[];
    expect(rows).toHaveLength(40);
    for (const r of rows) expect(r, JSON.stringify(r)).toMatchObject({ status: "succeeded", attempts: 1, check_id: expect.any(String) });
    expect(new Set(rows.map((r) => r.check_id)).size).toBe(40);
    expect(await checksOf(c.account)).toBe(40);
    const delivered = mine();
    expect(delivered).toHaveLength(40);
    const jobOf = (h: Hook): string => ((JSON.parse(h.body) as { data: { job_id: string } }).data.job_id);
    expect(new Set(delivered.map(jobOf))).toEqual(new Set(ids));
    for (const h of delivered) expect(signedBy(secret, h), h.body.slice(0, 200)).toBe(true);
    // A rotation through API A: the next job submitted through B is signed by the new secret
    // (the workers read the shared secret, not one of their own), and by the old one during the overlap.
    const rotated = (await call(a, "POST", "/v1/webhook-secret/rotate", c.key, {})).body.secret as string;
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    const late = await call(b, "POST", "/v1/screen/async", c.key, { entity_value: "after-rotation.scale-out-test.com", webhook_url: hooks.url });
    expect(late.status, JSON.stringify(late.body)).toBe(202);
    const lateHook = await until("the webhook after the rotation", null, () => hooks.hooks.find((h) => h.body.includes(late.body.job_id as string)) ?? null, 150_000);
    expect(signedBy(rotated, lateHook)).toBe(true);
    expect(signedBy(secret, lateHook)).toBe(true);
    // Each job's state reads the same through either API.
    for (const id of ids.slice(0, 4)) {
      const [x, y] = [await call(a, "GET", `/v1/jobs/${id}`, c.key), await call(b, "GET", `/v1/jobs/${id}`, c.key)];
      expect(x.body).toMatchObject({ status: "succeeded", webhook: { status: "delivered" } });
      expect(y.body).toEqual(x.body);
    }
  });

  it("a key revoked through one API is refused by the other within its 5 s cache (decision 0005)", async () => {
    const c = await customer("revoked", "pro");
    for (const port of apis()) expect((await call(port, "POST", "/v1/screen", c.key, { entity_value: "paypa1.com" })).status).toBe(200);
    const keys = await call(a, "GET", "/v1/keys", c.key);
    const id = ((keys.body.items as { id: string }[])[0] as { id: string }).id;
    const revokedAt = Date.now();
    expect((await call(a, "DELETE", `/v1/keys/${id}`, c.key)).status).toBeLessThan(300);
    expect((await call(a, "POST", "/v1/screen", c.key, { entity_value: "paypa1.com" })).status).toBe(401);
    await until("API B to refuse the revoked key", null, async () => ((await call(b, "POST", "/v1/screen", c.key, { entity_value: "paypa1.com" })).status === 401 ? true : null), 30_000);
    // 5 s of cache, plus what a busy machine adds to the requests that found it out.
    expect(Date.now() - revokedAt).toBeLessThan(15_000);
  });

  it("the audit chains written through both APIs and both workers verify, on either API", async () => {
    const accounts = (await ds.query(`SELECT account_id, count(*)::int AS n FROM checks GROUP BY account_id`)) as { account_id: string; n: number }[];
    expect(accounts.length).toBeGreaterThanOrEqual(4);
    for (const { account_id, n } of accounts) {
      for (const port of apis()) {
        const v = await call(port, "GET", `/v1/audit/verify?account_id=${encodeURIComponent(account_id)}`, ADMIN_KEY);
        expect(v.body, account_id).toMatchObject({ ok: true, account_id, checked: n, first_bad: null });
      }
    }
  });
});
