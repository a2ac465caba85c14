import { randomBytes } from "node:crypto";
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { CreatedKeySchema, CreateKeyRequestSchema, KeyListQuerySchema, KeyListSchema, ProblemSchema, type ApiKeyInfo } from "@svc/contracts";
import { apiKeyHint, formatApiKey, hashApiKey, type Account, type ApiKeyRecord, type Plan } from "@svc/server-ports";
import { callerOf, requireOperator, type Caller } from "../middleware/auth.js";
import { isKnownPlan, planWithin } from "@svc/runtime";
import { problem } from "../problem.js";
import type { ApiServices } from "../services.js";

/**
 * API keys over HTTP. A customer manages its own account's keys; the operator also those of any
 * account, and creates accounts. The key is in the 201 answer only (never stored, never
 * replayed: no Idempotency-Key here, since a replay would have to store the secret).
 */

const problems = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((st) => [st, { description: "Problem details (RFC 9457)", content: { "application/problem+json": { schema: ProblemSchema } } }]));
const common = problems(400, 401, 413, 415, 422, 429, 503);
const security = [{ ApiKey: [] }];

export const createKeyRoute = createRoute({
  method: "post", path: "/v1/keys", tags: ["keys"], security,
  summary: "Create an API key (shown once): for your account, or (operator) for another or a new account",
  request: { body: { content: { "application/json": { schema: CreateKeyRequestSchema } }, required: true } },
  responses: { 201: { description: "The key, shown this once", content: { "application/json": { schema: CreatedKeySchema } } }, ...common, ...problems(403, 404) },
});

export const listKeysRoute = createRoute({
  method: "get", path: "/v1/keys", tags: ["keys"], security,
  summary: "Your account's keys, revoked ones included, oldest first (never the key or its hash)",
  request: { query: KeyListQuerySchema },
  responses: { 200: { description: "Keys", content: { "application/json": { schema: KeyListSchema } } }, ...common, ...problems(403, 404) },
});

export const revokeKeyRoute = createRoute({
  method: "delete", path: "/v1/keys/{id}", tags: ["keys"], security,
  summary: "Revoke a key: refused (401 auth.revoked_key) from the next request on. Revoking the key you call with is allowed",
  request: { params: z.object({ id: z.string().min(1).max(64) }), query: KeyListQuerySchema },
  responses: { 204: { description: "Revoked (or already revoked)" }, ...common, ...problems(403, 404) },
});

export function registerKeyRoutes(app: OpenAPIHono, s: ApiServices): void {
  app.openapi(createKeyRoute, async (c) => {
    const caller = callerOf(c);
    const body = c.req.valid("json");
    if (body.new_account !== undefined || (body.account_id !== undefined && body.account_id !== caller.accountId)) requireOperator(caller);
    const plan = body.plan === undefined || !isKnownPlan(s.plans, body.plan) ? null : body.plan;
    if (body.plan !== undefined && !plan) {
      throw problem({ status: 422, code: "keys.unknown_plan", title: "Unknown plan", detail: `"${body.plan}" is not a plan of this server.`, errors: [{ pointer: "/plan", code: "keys.unknown_plan", message: "unknown plan" }] });
    }
    const now = s.clock.now();
    let account: Account;
    let keyPlan: Plan | null = plan;
    if (body.new_account !== undefined) {
      account = await s.accounts.create({ name: body.new_account, plan: plan ?? "free" }, now);
      keyPlan = null; // the plan is the new account's
    } else {
      account = await accountOrNotFound(s, body.account_id ?? caller.accountId);
      if (caller.role !== "operator") {
        // Never above the calling key's own plan; a key restricted below its account's plan mints restricted keys.
        if (plan && !planWithin(s.plans, plan, caller.plan)) {
          throw problem({ status: 403, code: "keys.plan_above_own", title: "Forbidden", detail: `A key may not have a plan above your own (${caller.plan}).` });
        }
        if (!plan && !planWithin(s.plans, account.plan, caller.plan)) keyPlan = caller.plan;
      }
    }
    const key = formatApiKey(randomBytes(32));
    const rec = await s.keys.create({ account_id: account.id, key_hash: hashApiKey(key), prefix: apiKeyHint(key), name: body.name ?? null, plan: keyPlan }, now);
    c.header("cache-control", "no-store");
    return c.json({ ...info(rec, account), key }, 201);
  });

  app.openapi(listKeysRoute, async (c) => {
    const account = await accountOf(s, callerOf(c), c.req.valid("query").account_id);
    const keys = await s.keys.list(account.id);
    return c.json({ items: keys.map((k) => info(k, account)) }, 200);
  });

  app.openapi(revokeKeyRoute, async (c) => {
    const account = await accountOf(s, callerOf(c), c.req.valid("query").account_id);
    const id = c.req.valid("param").id;
    // Looked up within the account only: another account's key id is answered exactly like an unknown one.
    const found = (await s.keys.list(account.id)).find((k) => k.id === id);
    if (!found) throw problem({ status: 404, code: "keys.not_found", title: "Not found", detail: "No key with this id in the account." });
    // The cache in front of the key store (auth-cache.ts) forgets the key here, so this process refuses it at once.
    if (!found.revoked_at) await s.keys.revoke(account.id, id, s.clock.now());
    return c.body(null, 204);
  });
}

/** The caller's account, or (operator only) the account named in `?account_id=`. */
async function accountOf(s: ApiServices, caller: Caller, accountId: string | undefined): Promise<Account> {
  if (accountId !== undefined && accountId !== caller.accountId) requireOperator(caller);
  return accountOrNotFound(s, accountId ?? caller.accountId);
}

async function accountOrNotFound(s: ApiServices, id: string): Promise<Account> {
  const account = await s.accounts.get(id);
  if (!account) throw problem({ status: 404, code: "keys.account_not_found", title: "Not found", detail: `No account ${id}.` });
  return account;
}

const info = (k: ApiKeyRecord, account: Account): ApiKeyInfo => ({
  id: k.id,
  account_id: k.account_id,
  name: k.name,
  prefix: k.prefix,
  plan: k.plan ?? account.plan,
  plan_is_account_plan: k.plan === null,
  created_at: k.created_at,
  revoked_at: k.revoked_at,
});
