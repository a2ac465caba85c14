import { hashApiKey, isWellFormedApiKey, type AccountRole, type Plan } from "@svc/core";
import type { MiddlewareHandler } from "hono";
import { problem } from "../problem.js";
import type { ApiServices } from "../services.js";

export interface Caller {
  readonly accountId: string;
  readonly keyId: string;
  readonly plan: Plan;
  readonly role: AccountRole;
}

const unauthorized = (code: string, detail: string) =>
  problem({ status: 401, code, title: "Unauthorized", detail, headers: { "WWW-Authenticate": 'ApiKey header="X-API-Key"' } });

/**
 * `X-API-Key`: format and checksum first (typos and junk never reach the database), then the
 * SHA-256 lookup; revoked keys are refused. The key itself is never logged or stored.
 */
export const authenticate = (s: Pick<ApiServices, "keys" | "accounts">): MiddlewareHandler => async (c, next) => {
  const key = c.req.header("x-api-key");
  if (!key) throw unauthorized("auth.missing_key", "Send your API key in the X-API-Key header.");
  if (!isWellFormedApiKey(key)) throw unauthorized("auth.invalid_key", "The API key is not valid (wrong format or checksum).");
  const record = await s.keys.findByHash(hashApiKey(key));
  if (!record) throw unauthorized("auth.invalid_key", "The API key is not valid.");
  if (record.revoked_at) throw unauthorized("auth.revoked_key", "This API key has been revoked; create a new one.");
  const account = await s.accounts.get(record.account_id);
  if (!account) throw unauthorized("auth.invalid_key", "The API key's account no longer exists.");
  c.set("caller" as never, { accountId: account.id, keyId: record.id, plan: record.plan ?? account.plan, role: account.role } satisfies Caller as never);
  return next();
};

export const callerOf = (c: { get(key: never): unknown }): Caller => c.get("caller" as never) as Caller;

/** Operator-only routes (moderation, other accounts' keys, audit verification): 403 for everyone else. */
export function requireOperator(caller: Caller): void {
  if (caller.role !== "operator") {
    throw problem({ status: 403, code: "auth.operator_only", title: "Forbidden", detail: "Only the operator's keys may do this." });
  }
}
