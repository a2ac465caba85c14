import { randomBytes } from "node:crypto";
import { type Clock } from "@svc/core";
import { apiKeyFromSecret, apiKeyHint, formatApiKey, hashApiKey, type AccountRepository, type ApiKeyRepository } from "@svc/server-ports";

import { OPERATOR_PLAN } from "@svc/runtime";

export const ADMIN_ACCOUNT_ID = "acc_admin";

/**
 * On first start, creates the admin account and its first API key, and returns the key so it can
 * be printed once (it is never stored, only its hash). With SVC_BOOTSTRAP_KEY the key is derived
 * from that secret, so automation knows it in advance; it is (re)registered if missing.
 */
export async function bootstrapAdmin(
  s: { accounts: AccountRepository; keys: ApiKeyRepository; clock: Clock },
  secret: string | undefined,
): Promise<{ created: boolean; key: string | null }> {
  const now = s.clock.now();
  let created = false;
  if (!(await s.accounts.get(ADMIN_ACCOUNT_ID))) {
    await s.accounts.create({ id: ADMIN_ACCOUNT_ID, name: "admin", plan: OPERATOR_PLAN, role: "operator" }, now);
    created = true;
  }
  if (secret) {
    const key = apiKeyFromSecret(secret);
    const hash = hashApiKey(key);
    if (!(await s.keys.findByHash(hash))) await s.keys.create({ account_id: ADMIN_ACCOUNT_ID, key_hash: hash, prefix: apiKeyHint(key) }, now);
    return { created, key: created ? key : null };
  }
  if (!created) return { created, key: null };
  const key = formatApiKey(randomBytes(32));
  await s.keys.create({ account_id: ADMIN_ACCOUNT_ID, key_hash: hashApiKey(key), prefix: apiKeyHint(key) }, now);
  return { created, key };
}
