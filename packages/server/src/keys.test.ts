import { ApiKeyInfoSchema, CreatedKeySchema, KeyListSchema, ProblemSchema } from "@svc/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApi, type TestApi } from "./test-support.js";

const engines = (["pglite", "postgres"] as const).filter((e) => e === "pglite" || process.env.TEST_DATABASE_URL);

describe.each(engines)("API keys over HTTP (/v1/keys) on %s", (engine) => {
  let api: TestApi;
  let operator: { accountId: string; key: string; keyId: string };
  beforeAll(async () => {
    api = await startTestApi(engine);
    operator = await api.account("pro", "operator");
  }, 120_000);
  afterAll(async () => api?.close());

  const req = (method: string, path: string, key: string, body?: unknown) =>
    api.app.request(path, { method, headers: { "x-api-key": key, ...(body !== undefined ? { "content-type": "application/json" } : {}) }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const create = async (key: string, body: unknown) => {
    const res = await req("POST", "/v1/keys", key, body);
    expect(res.status, await res.clone().text()).toBe(201);
    expect(res.headers.get("cache-control")).toBe("no-store");
    return CreatedKeySchema.parse(await res.json());
  };
  const list = async (key: string, query = "") => {
    const res = await req("GET", `/v1/keys${query}`, key);
    expect(res.status).toBe(200);
    const text = await res.text();
    return { items: KeyListSchema.parse(JSON.parse(text)).items, text };
  };
  const expectProblem = async (res: Response, status: number, code: string) => {
    expect(res.status).toBe(status);
    expect(res.headers.get("content-type")).toContain("application/problem+json");
    expect(ProblemSchema.parse(await res.json()).code).toBe(code);
  };

  it("the operator creates a key for a new account; that key works and sees only its own data", async () => {
    const k = await create(operator.key, { new_account: "Acme Ltd", plan: "starter", name: "acme-prod" });
    expect(k).toMatchObject({ account_id: expect.stringMatching(/^acc_/), plan: "starter", plan_is_account_plan: true, name: "acme-prod", revoked_at: null });
    expect(k.key).toMatch(/^svc_live_[0-9A-Za-z]{38}$/);
    expect(k.prefix).toBe(`${k.key.slice(0, 13)}…`);
    expect(k.account_id).not.toBe(operator.accountId);

    // The operator screens something; the new account's history stays its own.
    expect((await req("POST", "/v1/screen", operator.key, { entity_value: "paypa1.com" })).status).toBe(200);
    const screened = await req("POST", "/v1/screen", k.key, { entity_value: "evil-login-paypal.com" });
    expect(screened.status).toBe(200);
    expect(screened.headers.get("ratelimit-limit")).toBe("300");
    const history = (await (await req("GET", "/v1/history", k.key)).json()) as { items: { entity: { value: string } }[] };
    expect(history.items.map((i) => i.entity.value)).toEqual(["evil-login-paypal.com"]);
    // Its own key list is the one key; the operator's keys are not in it.
    expect((await list(k.key)).items.map((i) => i.id)).toEqual([k.id]);
  });

  it("the operator creates a key on an existing account and lists and revokes another account's keys with ?account_id=", async () => {
    const customer = await api.account("free");
    const k = await create(operator.key, { account_id: customer.accountId, name: "support", plan: "pro" });
    expect(k).toMatchObject({ account_id: customer.accountId, plan: "pro", plan_is_account_plan: false });
    const { items } = await list(operator.key, `?account_id=${customer.accountId}`);
    expect(items.map((i) => i.id)).toEqual([customer.keyId, k.id]);
    expect((await req("DELETE", `/v1/keys/${k.id}?account_id=${customer.accountId}`, operator.key)).status).toBe(204);
    await expectProblem(await req("GET", "/v1/history", k.key), 401, "auth.revoked_key");
    await expectProblem(await req("POST", "/v1/keys", operator.key, { account_id: "acc_nobody", name: "x" }), 404, "keys.account_not_found");
  });

  it("a customer creates, lists and revokes its own keys; the secret is only in the 201 body", async () => {
    const customer = await api.account("starter");
    const k = await create(customer.key, { name: "ci" });
    expect(k).toMatchObject({ account_id: customer.accountId, name: "ci", plan: "starter", plan_is_account_plan: true });
    const lower = await create(customer.key, { plan: "free" });
    expect(lower).toMatchObject({ plan: "free", plan_is_account_plan: false, name: null });

    const { items, text } = await list(customer.key);
    expect(items.map((i) => i.id)).toEqual([customer.keyId, k.id, lower.id]);
    for (const i of items) expect(Object.keys(i).sort()).toEqual(Object.keys(ApiKeyInfoSchema.shape).sort());
    expect(text).not.toContain(k.key);
    expect(text).not.toContain(k.key.slice(13));
    expect(text).not.toMatch(/[0-9a-f]{64}/); // no hash either

    // The new key works, and is refused at once after revocation (the auth cache forgets it).
    expect((await req("GET", "/v1/history", k.key)).status).toBe(200);
    expect((await req("DELETE", `/v1/keys/${k.id}`, customer.key)).status).toBe(204);
    await expectProblem(await req("GET", "/v1/history", k.key), 401, "auth.revoked_key");
    expect((await list(customer.key)).items.find((i) => i.id === k.id)?.revoked_at).toEqual(expect.any(String));
    // Revoking again is answered the same (idempotent); revoking the key you call with is allowed.
    expect((await req("DELETE", `/v1/keys/${k.id}`, customer.key)).status).toBe(204);
    expect((await req("DELETE", `/v1/keys/${customer.keyId}`, customer.key)).status).toBe(204);
    await expectProblem(await req("GET", "/v1/keys", customer.key), 401, "auth.revoked_key");
  });

  it("a customer cannot touch other accounts: 404 for their key ids, 403 for operator-only fields and plans above its own", async () => {
    const mine = await api.account("starter");
    const theirs = await api.account("pro");
    // Another account's key id is answered exactly like an unknown id, and stays active.
    const foreign = await req("DELETE", `/v1/keys/${theirs.keyId}`, mine.key);
    const unknown = await req("DELETE", "/v1/keys/key_doesnotexist", mine.key);
    expect(foreign.status).toBe(404);
    const [a, b] = [ProblemSchema.parse(await foreign.json()), ProblemSchema.parse(await unknown.json())];
    expect({ ...a, request_id: "" }).toEqual({ ...b, request_id: "" });
    expect((await req("GET", "/v1/history", theirs.key)).status).toBe(200);

    await expectProblem(await req("GET", `/v1/keys?account_id=${theirs.accountId}`, mine.key), 403, "auth.operator_only");
    await expectProblem(await req("DELETE", `/v1/keys/${theirs.keyId}?account_id=${theirs.accountId}`, mine.key), 403, "auth.operator_only");
    await expectProblem(await req("POST", "/v1/keys", mine.key, { account_id: theirs.accountId }), 403, "auth.operator_only");
    await expectProblem(await req("POST", "/v1/keys", mine.key, { new_account: "Mine Too", plan: "free" }), 403, "auth.operator_only");
    await expectProblem(await req("POST", "/v1/keys", mine.key, { plan: "pro" }), 403, "keys.plan_above_own");
    // Its own account named explicitly is fine.
    expect((await req("POST", "/v1/keys", mine.key, { account_id: mine.accountId })).status).toBe(201);
    // No key was made for the other account.
    expect((await list(theirs.key)).items.map((i) => i.id)).toEqual([theirs.keyId]);
  });

  it("a key restricted below its account's plan mints keys no higher than itself", async () => {
    const customer = await api.account("pro");
    const restricted = await create(customer.key, { plan: "free" });
    const child = await create(restricted.key, { name: "child" });
    expect(child).toMatchObject({ plan: "free", plan_is_account_plan: false });
    await expectProblem(await req("POST", "/v1/keys", restricted.key, { plan: "starter" }), 403, "keys.plan_above_own");
  });

  it.each([
    ["an unknown plan", { plan: "platinum" }, 422, "keys.unknown_plan"],
    ["account_id and new_account together", { account_id: "acc_x", new_account: "X" }, 422, "request.invalid"],
    ["an unknown field", { name: "x", role: "operator" }, 422, "request.invalid"],
    ["an empty name", { name: "  " }, 422, "request.invalid"],
    ["a name too long", { name: "n".repeat(101) }, 422, "request.invalid"],
  ])("bad input — %s — is a problem, never a key", async (_n, body, status, code) => {
    const before = (await list(operator.key)).items.length;
    await expectProblem(await req("POST", "/v1/keys", operator.key, body), status, code);
    expect((await list(operator.key)).items.length).toBe(before);
  });

  it("needs a key, and JSON", async () => {
    await expectProblem(await api.app.request("/v1/keys"), 401, "auth.missing_key");
    await expectProblem(await api.app.request("/v1/keys", { method: "POST", headers: { "x-api-key": operator.key, "content-type": "text/plain" }, body: "x" }), 415, "request.unsupported_media_type");
  });
});
