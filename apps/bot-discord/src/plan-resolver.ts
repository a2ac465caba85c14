import type { PlanResolver, PlanTier } from "@svc/bot-kernel";
import { hashApiKey, type AccountRepository, type ApiKeyRepository } from "@svc/core";

export interface ApiKeyPlanResolverOptions {
  /**
   * The deployment's bootstrap key (`SVC_BOOTSTRAP_KEY`), by hash: it resolves to `plan` while
   * the key store has never heard of it (a bot on its own embedded database). Once the API has
   * registered it in the shared database the stored record decides, so revoking it there wins.
   */
  readonly bootstrap?: { readonly keyHash: string; readonly plan: PlanTier };
}

/**
 * `/connect <api_key>` against the API's key store, with the API's own rule: the key is looked
 * up by its SHA-256 (the key itself is never stored or sent anywhere), a revoked key or one
 * whose account is gone resolves to nothing, and the plan is the key's own or else its account's.
 */
export class ApiKeyPlanResolver implements PlanResolver {
  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly accounts: AccountRepository,
    private readonly options: ApiKeyPlanResolverOptions = {},
  ) {}

  async planForKey(key: string): Promise<PlanTier | null> {
    const hash = hashApiKey(key);
    const record = await this.keys.findByHash(hash);
    if (!record) return this.options.bootstrap?.keyHash === hash ? this.options.bootstrap.plan : null;
    if (record.revoked_at !== null) return null;
    const account = await this.accounts.get(record.account_id);
    if (!account) return null;
    return botTier(record.plan ?? account.plan);
  }
}

/**
 * The bot tier an API plan unlocks. API plans are the operator's configuration; the bots know
 * three tiers. A tier's own name maps to itself, the operator's plan to the highest, and any
 * other configured plan to the lowest (a plan name alone says nothing about what was paid for).
 */
export function botTier(plan: string): PlanTier {
  if (plan === "free" || plan === "starter" || plan === "pro") return plan;
  return plan === "operator" ? "pro" : "free";
}
