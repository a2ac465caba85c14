export type Plan = "free" | "starter" | "pro";

export interface Account {
  readonly id: string;
  readonly name: string;
  readonly plan: Plan;
  readonly created_at: string;
}

export interface NewAccount {
  /** Assigned by the store (`acc_…`) when absent. */
  readonly id?: string;
  readonly name: string;
  readonly plan: Plan;
}

export interface AccountRepository {
  /** Rejects a duplicate id. */
  create(input: NewAccount, now: Date): Promise<Account>;
  get(id: string): Promise<Account | null>;
}
