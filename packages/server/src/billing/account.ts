import type { Account } from "@svc/server-ports";
import type { Context } from "hono";
import { callerOf } from "../middleware/auth.js";
import { problem } from "../problem.js";
import type { ApiServices } from "../services.js";

/**
 * The account a /v1/billing or /v1/account request acts for: the authenticated caller's. Every
 * way of authenticating (an API key today, a web session too) sets the same `caller` on the
 * context, so this is the one place to extend if another way ever needs more than that.
 */
export async function actingAccount(c: Context, s: Pick<ApiServices, "accounts">): Promise<Account> {
  const account = await s.accounts.get(callerOf(c).accountId);
  if (!account) throw problem({ status: 401, code: "auth.invalid_key", title: "Unauthorized", detail: "The caller's account no longer exists." });
  return account;
}
