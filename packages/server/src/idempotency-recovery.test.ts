import { createHash } from "node:crypto";
import { ProblemSchema } from "@svc/contracts";
import { auditRecordOf, canonicalJson, IDEMPOTENCY_LEASE_MS, screenEntity, type Verdict } from "@svc/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApi, type TestApi } from "./test-support.js";

const engines = (["pglite", "postgres"] as const).filter((e) => e === "pglite" || process.env.TEST_DATABASE_URL);

// A process killed mid-request leaves its Idempotency-Key claimed and never renewed. These tests
// leave the store in exactly that state (a claim made one lease ago, plus whatever the request had
// done before it died) and then retry over HTTP.
describe.each(engines)("Idempotency-Key after the request holding it died, on %s", (engine) => {
  let api: TestApi;
  let a = { key: "", accountId: "" };
  beforeAll(async () => {
    api = await startTestApi(engine);
    a = await api.account("pro");
  }, 120_000);
  afterAll(async () => api?.close());

  const post = (path: string, body: unknown, idemKey: string) =>
    api.app.request(path, { method: "POST", headers: { "content-type": "application/json", "x-api-key": a.key, "idempotency-key": idemKey }, body: JSON.stringify(body) });
  const hashOf = (path: string, body: unknown) => createHash("sha256").update(`POST ${path}\n${canonicalJson(body)}`).digest("hex");
  /** The claim a request made `ago` ms before now, and never renewed because its process died. */
  const diedHolding = async (path: string, body: unknown, idemKey: string, ago = IDEMPOTENCY_LEASE_MS + 1_000) => {
    const claimedAt = new Date(Date.now() - ago);
    expect((await api.runtime.services.idempotency.begin(a.accountId, idemKey, hashOf(path, body), claimedAt)).state).toBe("new");
    return claimedAt;
  };
  const jobsWithKey = async (idemKey: string) =>
    ((await api.runtime.dataSource.query(`SELECT id FROM async_jobs WHERE account_id = $1 AND idempotency_key = $2`, [a.accountId, idemKey])) as { id: string }[]).map((r) => r.id);

  it("POST /v1/screen/async: the retry gets 202 with the job the dead request created, not a second job", async () => {
    const body = { entity_value: "paypa1.com", metadata: { order: "A-1" } };
    const claimedAt = await diedHolding("/v1/screen/async", body, "k-async-dead");
    // The dead request had submitted its job (it may even have run) before it could answer.
    const orphan = await api.runtime.services.async.jobs.submit({
      id: api.runtime.services.ids.next("job"), account_id: a.accountId, key_id: null, request: { entity_value: "paypa1.com" },
      webhook_url: null, metadata: { order: "A-1" }, created_at: new Date(claimedAt.getTime() + 5), idempotency_key: "k-async-dead",
    });
    const retry = await post("/v1/screen/async", body, "k-async-dead");
    expect(retry.status, await retry.clone().text()).toBe(202);
    expect(await retry.json()).toMatchObject({ job_id: orphan.id, status: "queued", poll_url: `/v1/jobs/${orphan.id}` });
    expect(retry.headers.get("location")).toBe(`/v1/jobs/${orphan.id}`);
    const again = await post("/v1/screen/async", body, "k-async-dead");
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(((await again.json()) as { job_id: string }).job_id).toBe(orphan.id);
    expect(await jobsWithKey("k-async-dead")).toEqual([orphan.id]);
  });

  it("POST /v1/screen/async: when the dead request had not created its job yet, the retry creates exactly one", async () => {
    const body = { entity_value: "example.com" };
    await diedHolding("/v1/screen/async", body, "k-async-early");
    const retry = await post("/v1/screen/async", body, "k-async-early");
    expect(retry.status).toBe(202);
    const { job_id } = (await retry.json()) as { job_id: string };
    expect(await jobsWithKey("k-async-early")).toEqual([job_id]);
  });

  it("an earlier job with the same key from before the claim (the key's previous 24 h life) is not taken for the dead request's", async () => {
    const body = { entity_value: "example.org" };
    await api.runtime.services.async.jobs.submit({
      id: api.runtime.services.ids.next("job"), account_id: a.accountId, key_id: null, request: { entity_value: "example.org" },
      webhook_url: null, metadata: null, created_at: new Date(Date.now() - 25 * 3_600_000), idempotency_key: "k-reused",
    });
    await diedHolding("/v1/screen/async", body, "k-reused");
    const retry = await post("/v1/screen/async", body, "k-reused");
    expect(retry.status).toBe(202);
    expect(await jobsWithKey("k-reused")).toContain(((await retry.json()) as { job_id: string }).job_id);
    expect(await jobsWithKey("k-reused")).toHaveLength(2);
  });

  it("POST /v1/screen: the retry runs the check instead of answering 409 for 24 h", async () => {
    const body = { entity_value: "idem-dead.example.com" };
    await diedHolding("/v1/screen", body, "k-screen-dead");
    const retry = await post("/v1/screen", body, "k-screen-dead");
    expect(retry.status).toBe(200);
    const again = await post("/v1/screen", body, "k-screen-dead");
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.json()).toEqual(await retry.json());
  });

  /** What a request that died after committing its checks (but before answering) left stored. */
  const storedBeforeDying = async (entities: readonly string[], idemKey: string, claimedAt: Date) => {
    const out: Verdict[] = [];
    for (const value of entities) {
      const r = await screenEntity({ entity_value: value }, api.runtime.services.screening);
      if (!r.ok) throw new Error(`${value} does not parse`);
      await api.runtime.services.checks.save({
        ...auditRecordOf({ accountId: a.accountId, actor: { key_id: null, channel: "api" }, request: { entity_value: value }, screened: r, now: new Date(claimedAt.getTime() + 5) }),
        idempotency_key: idemKey,
      });
      out.push(r.verdict);
    }
    return out;
  };
  const checksWithKey = async (idemKey: string) =>
    ((await api.runtime.dataSource.query(`SELECT id FROM checks WHERE account_id = $1 AND idempotency_key = $2 ORDER BY id`, [a.accountId, idemKey])) as { id: string }[]).map((r) => r.id);
  const monthUsed = async () =>
    ((await (await api.app.request("/v1/usage", { headers: { "x-api-key": a.key } })).json()) as { month: { used: number } }).month.used;

  it("POST /v1/screen: when the dead request had stored its check, the retry answers that check (no second check, no second charge)", async () => {
    const body = { entity_value: "idem-stored.example.com" };
    const claimedAt = await diedHolding("/v1/screen", body, "k-screen-stored");
    const [orphan] = await storedBeforeDying(["idem-stored.example.com"], "k-screen-stored", claimedAt);
    const used = await monthUsed();
    const retry = await post("/v1/screen", body, "k-screen-stored");
    expect(retry.status, await retry.clone().text()).toBe(200);
    expect(await retry.json()).toEqual(orphan);
    expect(await checksWithKey("k-screen-stored")).toEqual([orphan?.id]);
    expect(await monthUsed()).toBe(used);
    expect(((await (await api.app.request(`/v1/audit/${orphan?.id}`, { headers: { "x-api-key": a.key } })).json()) as { id: string }).id).toBe(orphan?.id);
  });

  it("POST /v1/screen/batch: the retry answers the checks the dead request stored and stores only the rest", async () => {
    const entities = ["batch-a.example.com", "batch-b.example.com", "not an entity ::", "batch-c.example.com", "batch-a.example.com"];
    const body = { entities };
    const claimedAt = await diedHolding("/v1/screen/batch", body, "k-batch-part");
    const [first] = await storedBeforeDying(["batch-a.example.com"], "k-batch-part", claimedAt);
    const used = await monthUsed();
    const retry = await post("/v1/screen/batch", body, "k-batch-part");
    expect(retry.status, await retry.clone().text()).toBe(200);
    const out = (await retry.json()) as { results: { index: number; status: string; result?: Verdict }[]; summary: { ok: number; error: number; unique: number } };
    expect(out.results[0]?.result).toEqual(first);
    expect(out.results[4]?.result).toEqual(first);
    expect(out.results[2]?.status).toBe("error");
    expect(out.summary).toMatchObject({ ok: 4, error: 1, unique: 3 });
    const ids = out.results.flatMap((r) => (r.result ? [r.result.id] : []));
    expect(await checksWithKey("k-batch-part")).toEqual([...new Set(ids)].sort());
    expect(await monthUsed()).toBe(used);
    // Each stored check was recorded once: the account's chain still verifies and holds no duplicate.
    const replay = await post("/v1/screen/batch", body, "k-batch-part");
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(await replay.json()).toEqual(out);
  });

  it("checks stored under the same key before the claim (the key's previous life) are not taken for the dead request's", async () => {
    const body = { entity_value: "idem-old.example.com" };
    const [old] = await storedBeforeDying(["idem-old.example.com"], "k-screen-old", new Date(Date.now() - 25 * 3_600_000));
    await diedHolding("/v1/screen", body, "k-screen-old");
    const retry = await post("/v1/screen", body, "k-screen-old");
    expect(retry.status).toBe(200);
    const v = (await retry.json()) as Verdict;
    expect(v.id).not.toBe(old?.id);
    expect(await checksWithKey("k-screen-old")).toEqual([old?.id, v.id].sort());
  });

  it("a key held by a live request (its lease not run out) answers 409 with Retry-After", async () => {
    const body = { entity_value: "idem-live.example.com" };
    await diedHolding("/v1/screen", body, "k-live", 1_000);
    const res = await post("/v1/screen", body, "k-live");
    expect(res.status).toBe(409);
    expect(res.headers.get("retry-after")).toBe("1");
    expect(res.headers.get("content-type")).toContain("application/problem+json");
    expect(ProblemSchema.parse(await res.json())).toMatchObject({ code: "idempotency.in_flight", retryable: true });
  });

  it("a lapsed key retried with another body is still refused as a mismatch", async () => {
    await diedHolding("/v1/screen", { entity_value: "one.example.com" }, "k-mismatch");
    const res = await post("/v1/screen", { entity_value: "two.example.com" }, "k-mismatch");
    expect(res.status).toBe(422);
    expect(((await res.json()) as { code: string }).code).toBe("idempotency.mismatch");
  });
});
