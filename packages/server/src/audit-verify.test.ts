import { AuditVerifyResponseSchema, ProblemSchema } from "@svc/contracts";
import { legacyRecordHash, type AuditRecord } from "@svc/core";
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApi, type TestApi } from "./test-support.js";

const engines = (["pglite", "postgres"] as const).filter((e) => e === "pglite" || process.env.TEST_DATABASE_URL);

describe.each(engines)("GET /v1/audit/verify on %s", (engine) => {
  let api: TestApi;
  let operator = "";
  beforeAll(async () => {
    api = await startTestApi(engine);
    ({ key: operator } = await api.account("pro", "operator"));
  }, 120_000);
  afterAll(async () => api?.close());

  const get = (path: string, k: string) => api.app.request(path, { headers: { "x-api-key": k } });
  const sql = (text: string, params: unknown[]) => api.runtime.dataSource.query(text, params);
  /** A customer with `n` checks; their ids in chain order. */
  const customerWith = async (n: number) => {
    const c = await api.account("pro");
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const res = await api.app.request("/v1/screen", { method: "POST", headers: { "content-type": "application/json", "x-api-key": c.key }, body: JSON.stringify({ entity_value: `shop-${i}-paypa1.com` }) });
      expect(res.status).toBe(200);
      ids.push(((await res.json()) as { id: string }).id);
    }
    return { ...c, ids };
  };
  const verify = async (accountId: string, extra = "") => {
    const res = await get(`/v1/audit/verify?account_id=${accountId}${extra}`, operator);
    expect(res.status).toBe(200);
    return AuditVerifyResponseSchema.parse(await res.json());
  };

  it("reports an untouched chain as ok, with the right count", async () => {
    const c = await customerWith(4);
    expect(await verify(c.accountId)).toEqual({ ok: true, account_id: c.accountId, checked: 4, legacy: 0, first_bad: null });
    const rec = (await (await get(`/v1/audit/${c.ids[0]}`, c.key)).json()) as AuditRecord;
    expect(rec).toMatchObject({ hash_version: 2, hash_key_id: expect.stringMatching(/^ak_[0-9a-f]{16}$/) });
  });

  for (const [column, set] of [
    ["entity_value", `entity_value = 'harmless.example'`],
    ["risk_score", `risk_score = 0`],
    ["risk_level", `risk_level = 'low'`],
    ["signals", `verdict = jsonb_set(verdict::jsonb, '{signals}', '[]'::jsonb)`],
    ["created_at", `created_at = created_at - interval '1 day'`],
  ] as const) {
    it(`names exactly the record whose ${column} was edited in the database`, async () => {
      const c = await customerWith(3);
      await sql(`UPDATE checks SET ${set} WHERE id = $1`, [c.ids[1]]);
      const r = await verify(c.accountId);
      expect(r).toMatchObject({ ok: false, checked: 2, first_bad: { id: c.ids[1], reason: "hash_mismatch" } });
    });
  }

  it("verifies only the stretch since/until ask for: an edit before it is not read, one inside it is named", async () => {
    const c = await customerWith(4);
    const [at] = (await sql(`SELECT created_at::text AS at FROM checks WHERE id = $1`, [c.ids[2]])) as { at: string }[];
    const since = `&since=${encodeURIComponent(new Date(at!.at).toISOString())}`;
    await sql(`UPDATE checks SET risk_score = 0 WHERE id = $1`, [c.ids[0]]);
    expect(await verify(c.accountId, since)).toEqual({ ok: true, account_id: c.accountId, checked: 2, legacy: 0, first_bad: null });
    expect(await verify(c.accountId)).toMatchObject({ ok: false, first_bad: { id: c.ids[0], reason: "hash_mismatch" } });
    await sql(`UPDATE checks SET risk_score = 0 WHERE id = $1`, [c.ids[3]]);
    expect(await verify(c.accountId, since)).toMatchObject({ ok: false, checked: 2, first_bad: { id: c.ids[3], reason: "hash_mismatch" } });
  });

  it("catches an edit re-hashed with plain SHA-256, as someone with database access but no key would", async () => {
    const c = await customerWith(3);
    const rec = (await (await get(`/v1/audit/${c.ids[1]}`, c.key)).json()) as AuditRecord;
    const edited = { ...rec, verdict: { ...rec.verdict, risk_score: 0, risk_level: "low" as const } };
    const hash = legacyRecordHash(edited, { sha256: (m) => createHash("sha256").update(m).digest("hex") });
    await sql(
      `UPDATE checks SET verdict = $2::jsonb, risk_score = 0, risk_level = 'low', record_hash = $3, hash_version = 1, hash_key_id = NULL WHERE id = $1`,
      [c.ids[1], JSON.stringify(edited.verdict), hash],
    );
    expect(await verify(c.accountId)).toMatchObject({ ok: false, first_bad: { id: c.ids[1], reason: "hash_mismatch" } });
  });

  it("reports a record deleted from the middle as chain_broken at the next one", async () => {
    const c = await customerWith(4);
    await sql(`DELETE FROM checks WHERE id = $1`, [c.ids[1]]);
    expect(await verify(c.accountId)).toMatchObject({ ok: false, first_bad: { id: c.ids[2], reason: "chain_broken" } });
  });

  it("catches records cut from the end, and the chain head deleted or moved back to hide them", async () => {
    const c = await customerWith(3);
    await sql(`DELETE FROM checks WHERE id = $1`, [c.ids[2]]);
    expect(await verify(c.accountId)).toMatchObject({ ok: false, checked: 2, first_bad: { id: null, reason: "missing" } });
    await sql(`UPDATE check_chain_heads SET seq = 2, last_hash = (SELECT record_hash FROM checks WHERE id = $2) WHERE account_id = $1`, [c.accountId, c.ids[1]]);
    expect(await verify(c.accountId)).toMatchObject({ ok: false, first_bad: { id: null, reason: "hash_mismatch" } });
    await sql(`DELETE FROM check_chain_heads WHERE account_id = $1`, [c.accountId]);
    expect(await verify(c.accountId)).toMatchObject({ ok: false, first_bad: { id: null, reason: "hash_mismatch" } });
  });

  it("is for the operator: a customer gets 403, even for their own chain; an unknown account is 404", async () => {
    const c = await customerWith(1);
    for (const path of [`/v1/audit/verify`, `/v1/audit/verify?account_id=${c.accountId}`]) {
      const res = await get(path, c.key);
      expect(res.status).toBe(403);
      expect(ProblemSchema.parse(await res.json()).code).toBe("auth.operator_only");
    }
    const res = await get(`/v1/audit/verify?account_id=acc_nobody`, operator);
    expect(res.status).toBe(404);
    expect((await get(`/v1/audit/verify?since=2026-01-02T00:00:00Z&until=2026-01-01T00:00:00Z`, operator)).status).toBe(422);
    expect((await get(`/v1/audit/verify?since=yesterday`, operator)).status).toBe(422);
  });
});
