import type { Account, AccountRepository, NewAccount } from "@svc/server-ports";

export class InMemoryAccountRepository implements AccountRepository {
  private readonly accounts = new Map<string, Account>();

  async create(input: NewAccount, now: Date): Promise<Account> {
    const id = input.id ?? `acc_${crypto.randomUUID().replaceAll("-", "")}`;
    if (this.accounts.has(id)) throw new Error(`duplicate account id ${id}`);
    const account: Account = { id, name: input.name, plan: input.plan, role: input.role ?? "customer", created_at: now.toISOString() };
    this.accounts.set(id, account);
    return { ...account };
  }

  async get(id: string): Promise<Account | null> {
    const a = this.accounts.get(id);
    return a ? { ...a } : null;
  }

  has(id: string): boolean {
    return this.accounts.has(id);
  }
}
