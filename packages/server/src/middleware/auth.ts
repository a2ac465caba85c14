import { hashApiKey, isWellFormedApiKey, type AccountRole, type Plan } from "@svc/server-ports";
import type { MiddlewareHandler } from "hono";
import { problem } from "../problem.js";
import type { ApiServices } from "../services.js";

export interface Caller {
  readonly accountId: string;
  readonly keyId: string;
  readonly plan: Plan;
  readonly role: AccountRole;
  /** Set when the request came with the dashboard's session cookie instead of a key. */
  readonly sessionUserId?: string;
}

const unauthorized = (code: string, detail: string) =>
  problem({ status: 401, code, title: "Unauthorized", detail, headers: { "WWW-Authenticate": 'Bearer realm="svc", ApiKey header="X-API-Key"' } });

const BEARER = /^bearer[ \t]+(\S*)$/i;

/**
 * The key from `X-API-Key` or `Authorization: Bearer <key>` (the same key either way). Both
 * given and different is a contradiction, refused before any lookup. An `Authorization` of
 * another scheme beside `X-API-Key` is left alone (a proxy in front may use it).
 */
function presentedKey(header: (name: string) => string | undefined): string {
  const apiKey = header("x-api-key");
  const authorization = header("authorization");
  const bearer = authorization === undefined ? undefined : BEARER.exec(authorization.trim())?.[1];
  if (apiKey !== undefined && bearer !== undefined && apiKey !== bearer) {
    throw problem({ status: 400, code: "auth.conflicting_keys", title: "Conflicting API keys", detail: "X-API-Key and Authorization: Bearer name different keys; send one key, in either header." });
  }
  const key = apiKey ?? bearer;
  if (key) return key;
  if (authorization !== undefined && bearer === undefined) {
    throw unauthorized("auth.missing_key", "Authorization must use the Bearer scheme (Authorization: Bearer <key>), or send the key in X-API-Key.");
  }
  throw unauthorized("auth.missing_key", "Send your API key in the X-API-Key header or as Authorization: Bearer <key>.");
}

/**
 * `X-API-Key` or `Authorization: Bearer`: format and checksum first (typos and junk never reach
 * the database), then the SHA-256 lookup; revoked keys are refused. The key itself is never
 * logged or stored.
 */
export const authenticate = (s: Pick<ApiServices, "keys" | "accounts">): MiddlewareHandler => async (c, next) => {
  const key = presentedKey((name) => c.req.header(name));
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
