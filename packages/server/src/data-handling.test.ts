import { DeletionRequestSchema, ProblemSchema, ReviewQueueSchema, ReviewSchema } from "@svc/contracts";
import { randomUUID } from "node:crypto";
import { hashApiKey } from "@svc/server-ports";
import type { RunningWorker } from "@svc/jobs";
import { anonymousRef, KEPT_ANONYMISED, TypeOrmServerSecrets } from "@svc/persistence";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@svc/runtime";
import { startEmbeddedWorker } from "./embedded-worker.js";
import { startTestApi, type TestApi } from "./test-support.js";

const engines = (["pglite", "postgres"] as const).filter((e) => e === "pglite" || process.env.TEST_DATABASE_URL);

/** Every row of every table in every schema (pg-boss's too), as text: where personal data could hide. */
async function scan(api: TestApi, needles: readonly string[]): Promise<string[]> {
  const tables = (await api.runtime.dataSource.query(
    `SELECT table_schema, table_name FROM information_schema.tables
      WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema') AND table_schema NOT LIKE 'pg_toast%'`,
  )) as { table_schema: string; table_name: string }[];
  expect(tables.map((t) => t.table_name)).toEqual(expect.arrayContaining(["accounts", "api_keys", "checks", "reports", "entitlements", "check_reviews", "bot_chat_settings"]));
  const hits: string[] = [];
  for (const t of tables) {
    const name = `"${t.table_schema.replaceAll('"', '""')}"."${t.table_name.replaceAll('"', '""')}"`;
    const rows = (await api.runtime.dataSource.query(`SELECT x::text AS row FROM ${name} x`)) as { row: string }[];
    for (const r of rows) for (const n of needles) if (r.row.includes(n)) hits.push(`${t.table_schema}.${t.table_name}: ${n}`);
  }
  return hits;
}

describe.each(engines)("data handling: account deletion and human review on %s", (engine) => {
  let api: TestApi;
  let worker: RunningWorker | undefined;
  const ORIGIN = "http://app.test";
  const env = { SVC_WEBHOOK_ALLOWED_CIDRS: "127.0.0.2/32", SVC_PUBLIC_URL: ORIGIN };
  beforeAll(async () => {
    api = await startTestApi(engine, env);
    worker = await startEmbeddedWorker(api.runtime, loadConfig({ ...env, SVC_DATA_DIR: "memory://" }), { pollIntervalMs: 50 });
  }, 120_000);
  afterAll(async () => {
    await worker?.stop(5_000);
    await api?.close();
  });

  const post = (path: string, key: string, body: unknown, headers: Record<string, string> = {}) =>
    api.app.request(path, { method: "POST", headers: { "content-type": "application/json", "x-api-key": key, ...headers }, body: JSON.stringify(body) });
  const get = (path: string, key: string) => api.app.request(path, { headers: { "x-api-key": key } });
  const expectProblem = async (res: Response, status: number, code: string) => {
    expect(res.status, await res.clone().text()).toBe(status);
    expect(ProblemSchema.parse(await res.json()).code).toBe(code);
  };
  const screen = async (key: string, value: string, headers: Record<string, string> = {}) => {
    const res = await post("/v1/screen", key, { entity_value: value }, headers);
    expect(res.status, await res.clone().text()).toBe(200);
    return ((await res.json()) as { id: string }).id;
  };

  it("after a deletion request is processed, no table holds a row naming the account, its keys, checks or customer", async () => {
    const a = await api.account("starter");
    const b = await api.account("starter");
    const ds = api.runtime.dataSource;
    // A second key, checks (one with an Idempotency-Key), an asynchronous check with a webhook, a report, a review.
    const second = await post("/v1/keys", a.key, { name: "ci" });
    const secondKey = ((await second.json()) as { id: string; key: string });
    const check1 = await screen(a.key, "paypa1-login.example.com", { "idempotency-key": `idem-${a.accountId}` });
    const check2 = await screen(secondKey.key, "0x52908400098527886E0F7030069857D2E4169EE7");
    const async = await post("/v1/screen/async", a.key, { entity_value: "free-usdt-giveaway.example.net", webhook_url: "https://127.0.0.2:9/hook" });
    expect(async.status, await async.clone().text()).toBe(202);
    const report = await post("/v1/report", a.key, { entity_value: "paypa1-login.example.com", category: "phishing", check_id: check1, description: "took my password" });
    expect(report.status, await report.clone().text()).toBe(202);
    const reportId = ((await report.json()) as { id: string }).id;
    const review = await post(`/v1/checks/${check1}/review`, a.key, { reason: "this is my own shop" });
    expect(review.status).toBe(202);
    const reviewId = ReviewSchema.parse(await review.json()).id;
    // Billing: a Stripe customer and a purchase in the ledger; a bot chat bound with the key.
    await ds.query(`INSERT INTO billing_customers (account_id, customer_id, subscription_id, status, plan, updated_at) VALUES ($1, $2, $3, 'active', 'starter', now())`, [a.accountId, `cus_${a.accountId}`, `sub_${a.accountId}`]);
    const entId = `ent_${randomUUID().slice(0, 8)}`;
    await ds.query(`INSERT INTO entitlements (id, source, purchase_ref, account_id, plan, amount, currency, period_start, created_at) VALUES ($1, 'stripe', $2, $3, 'starter', 2900, 'usd', now(), now())`, [entId, `in_${randomUUID().slice(0, 8)}`, a.accountId]);
    await ds.query(
      `INSERT INTO bot_chat_settings (platform, chat_id, monitoring, policy, policy_levels, alerts, anti_raid, welcome, blocklist, allowlist, plan_tier, plan_source, plan_key_hash, plan_bound_by, updated_at)
       VALUES ('telegram', $1, true, 'notify', '{}', '{}', '{}', '{}', '[]', '{}', 'starter', 'api_key', $2, '42', now())`,
      [`-100${Date.now()}`, hashApiKey(a.key)],
    );
    await screen(b.key, "paypa1-login.example.com");
    // Let the asynchronous check finish so its job and webhook rows exist.
    for (let i = 0; i < 200; i++) {
      const [j] = (await ds.query(`SELECT status FROM async_jobs WHERE account_id = $1`, [a.accountId])) as { status: string }[];
      if (j && j.status !== "queued" && j.status !== "running") break;
      await new Promise((r) => setTimeout(r, 25));
    }
    const keys = (await ds.query(`SELECT id, key_hash FROM api_keys WHERE account_id = $1`, [a.accountId])) as { id: string; key_hash: string }[];
    const needles = [a.accountId, check1, check2, reviewId, `cus_${a.accountId}`, `sub_${a.accountId}`, ...keys.flatMap((k) => [k.id, k.key_hash])];
    expect((await scan(api, needles)).length).toBeGreaterThan(10);

    await expectProblem(await post("/v1/account/deletion", a.key, {}), 422, "request.invalid");
    const del = await post("/v1/account/deletion", a.key, { confirm: true });
    expect(del.status, await del.clone().text()).toBe(202);
    const request = DeletionRequestSchema.parse(await del.json());
    expect(request.purge_after).toBe(request.requested_at);
    // Every key stops at once (revoked, or already purged: the worker may be that quick).
    for (const k of [a.key, secondKey.key]) {
      const res = await get("/v1/usage", k);
      expect(res.status).toBe(401);
      expect(ProblemSchema.parse(await res.json()).code).toMatch(/^auth\.(revoked|invalid)_key$/);
    }

    for (let i = 0; i < 400; i++) {
      const [r] = (await ds.query(`SELECT completed_at FROM account_deletions WHERE id = $1`, [request.id])) as { completed_at: Date | null }[];
      if (r?.completed_at) break;
      await new Promise((r2) => setTimeout(r2, 25));
    }
    expect(await scan(api, needles)).toEqual([]);
    // Where the account's anonymous reference remains: only the documented tables.
    const anon = anonymousRef(await new TypeOrmServerSecrets(ds).get("insights", new Date()), a.accountId);
    const kept = new Set((await scan(api, [anon])).map((h) => h.split(": ")[0]?.replace(/^public\./, "")));
    expect([...kept].every((t) => t !== undefined && t in KEPT_ANONYMISED), [...kept].join(", ")).toBe(true);
    expect(kept).toEqual(new Set(["reports", "entitlements"]));
    // What stays is anonymised: the report (reporter a keyed hash, the cited check dropped) and the purchase.
    const [rep] = (await ds.query(`SELECT reporter_id, check_id FROM reports WHERE id = $1`, [reportId])) as { reporter_id: string; check_id: string | null }[];
    expect(rep).toEqual({ reporter_id: anon, check_id: null });
    expect(anon).toMatch(/^anon:[0-9a-f]{32}$/);
    const [ent] = (await ds.query(`SELECT account_id, account_ref FROM entitlements WHERE id = $1`, [entId])) as { account_id: string | null; account_ref: string }[];
    expect(ent).toEqual({ account_id: null, account_ref: anon });
    const [chat] = (await ds.query(`SELECT plan_tier, plan_source, plan_key_hash FROM bot_chat_settings WHERE plan_bound_by = '42' OR (plan_source = 'none' AND chat_id LIKE '-100%') ORDER BY updated_at DESC LIMIT 1`)) as Record<string, unknown>[];
    expect(chat).toEqual({ plan_tier: "free", plan_source: "none", plan_key_hash: null });
    // The other account is untouched.
    expect(((await (await get("/v1/history", b.key)).json()) as { items: unknown[] }).items).toHaveLength(1);
  });

  it("a dashboard user deletes the account with the session cookie: the session ends at once; after the purge nothing names the user", async () => {
    const ds = api.runtime.dataSource;
    const same = { origin: ORIGIN, "sec-fetch-site": "same-origin", "content-type": "application/json" };
    const address = `deleted-${randomUUID().slice(0, 8)}@example.com`;
    const signup = await api.app.request(`${ORIGIN}/auth/signup`, { method: "POST", headers: same, body: JSON.stringify({ email: address, password: "correct horse battery" }) });
    expect(signup.status, await signup.clone().text()).toBe(202);
    const login = await api.app.request(`${ORIGIN}/auth/login`, { method: "POST", headers: same, body: JSON.stringify({ email: address, password: "correct horse battery" }) });
    expect(login.status, await login.clone().text()).toBe(200);
    const cookie = /svc_session=([^;]+)/.exec(login.headers.get("set-cookie") ?? "")?.[1] as string;
    const { user } = (await login.json()) as { user: { id: string; account_id: string } };
    const withSession = (path: string, method = "GET", body?: unknown) =>
      api.app.request(`${ORIGIN}${path}`, { method, headers: { ...same, cookie: `svc_session=${cookie}` }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    const check = await withSession("/v1/screen", "POST", { entity_value: "paypa1-login.example.com" });
    expect(check.status).toBe(200);
    expect((await scan(api, [address, user.id, user.account_id])).length).toBeGreaterThan(2);

    const del = await withSession("/v1/account/deletion", "POST", { confirm: true });
    expect(del.status, await del.clone().text()).toBe(202);
    const request = DeletionRequestSchema.parse(await del.json());
    // The session is over (it would otherwise mint a new dashboard key).
    expect((await withSession("/v1/usage")).status).toBe(401);
    for (let i = 0; i < 400; i++) {
      const [r] = (await ds.query(`SELECT completed_at FROM account_deletions WHERE id = $1`, [request.id])) as { completed_at: Date | null }[];
      if (r?.completed_at) break;
      await new Promise((r2) => setTimeout(r2, 25));
    }
    expect(await scan(api, [address, user.id, user.account_id])).toEqual([]);
  });

  it("human review: the requester sees the status, the operator resolves; no account sees another's", async () => {
    const operator = await api.account("pro", "operator");
    const a = await api.account("starter");
    const b = await api.account("starter");
    const check = await screen(a.key, "secure-paypal-verify.example.org");
    await expectProblem(await post(`/v1/checks/${check}/review`, b.key, { reason: "x" }), 404, "audit.not_found");
    await expectProblem(await get(`/v1/checks/${check}/review`, a.key), 404, "review.not_found");
    const first = await post(`/v1/checks/${check}/review`, a.key, { reason: "It is our own domain." });
    expect(first.status).toBe(202);
    const review = ReviewSchema.parse(await first.json());
    expect(review).toMatchObject({ check_id: check, status: "pending", outcome: null });
    expect((await post(`/v1/checks/${check}/review`, a.key, { reason: "again" })).status).toBe(200);
    await expectProblem(await get(`/v1/checks/${check}/review`, b.key), 404, "review.not_found");

    await expectProblem(await get("/v1/reviews", a.key), 403, "auth.operator_only");
    await expectProblem(await post(`/v1/reviews/${review.id}/resolve`, a.key, { outcome: "upheld" }), 403, "auth.operator_only");
    const queue = ReviewQueueSchema.parse(await (await get("/v1/reviews?limit=200", operator.key)).json());
    expect(queue.items.find((r) => r.id === review.id)).toMatchObject({ account_id: a.accountId, reason: "It is our own domain.", verdict: { id: check, entity: { value: "secure-paypal-verify.example.org" } } });
    await expectProblem(await post(`/v1/reviews/${review.id}/resolve`, operator.key, { outcome: "changed" }), 422, "review.note_required");
    const resolved = await post(`/v1/reviews/${review.id}/resolve`, operator.key, { outcome: "changed", note: "Verified owner; marked as a false positive." });
    expect(resolved.status).toBe(200);
    const seen = ReviewSchema.parse(await (await get(`/v1/checks/${check}/review`, a.key)).json());
    expect(seen).toMatchObject({ status: "resolved", outcome: "changed", note: "Verified owner; marked as a false positive." });
    expect(seen).not.toHaveProperty("account_id");
    const pending = ReviewQueueSchema.parse(await (await get("/v1/reviews?limit=200", operator.key)).json());
    expect(pending.items.some((r) => r.id === review.id)).toBe(false);
    await expectProblem(await get("/v1/reviews?cursor=forged.cursor", operator.key), 422, "request.invalid_cursor");
  });

  it("serves the privacy page without a key", async () => {
    const res = await api.app.request("/privacy");
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain("within 30 days");
    expect(text).toContain("keyed hash");
  });
});
