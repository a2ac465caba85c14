import { hashApiKey } from "@svc/server-ports";
import type { PlanResolver, PlanTier } from "./ports.js";

/** Keys known by hash, as the real resolver knows them: the raw key is hashed before lookup. */
export class InMemoryPlanResolver implements PlanResolver {
  private readonly plans = new Map<string, PlanTier>();

  add(key: string, plan: PlanTier): this {
    this.plans.set(hashApiKey(key), plan);
    return this;
  }

  async planForKey(key: string): Promise<PlanTier | null> {
    return this.plans.get(hashApiKey(key)) ?? null;
  }
}
