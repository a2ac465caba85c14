/**
 * The name of a plan. Plans (their limits) are the operator's configuration, not code: the
 * API validates names against the configured plans (apps/api/src/plans.ts). The defaults are
 * `free`, `starter`, `pro` and `operator` (the operator's own account, no per-minute cap).
 */
export type Plan = string;

/** `operator` runs the service (moderation, other accounts' keys, audit verification); everyone else is a `customer`. */
export type AccountRole = "customer" | "operator";

export interface Account {
  readonly id: string;
  readonly name: string;
  readonly plan: Plan;
  readonly role: AccountRole;
  readonly created_at: string;
}

export interface NewAccount {
  /** Assigned by the store (`acc_…`) when absent. */
  readonly id?: string;
  readonly name: string;
  readonly plan: Plan;
  /** `customer` when absent. */
  readonly role?: AccountRole;
}

export interface AccountRepository {
  /** Rejects a duplicate id. */
  create(input: NewAccount, now: Date): Promise<Account>;
  get(id: string): Promise<Account | null>;
}
