import type { DataSource } from "typeorm";
import type { Account, AccountRepository, NewAccount } from "@svc/server-ports";
import { AccountEntity, type AccountRow } from "../entities/account.js";
import { iso, newId } from "./sql.js";

export class TypeOrmAccountRepository implements AccountRepository {
  constructor(private readonly ds: DataSource) {}

  async create(input: NewAccount, now: Date): Promise<Account> {
    const row: AccountRow = { id: input.id ?? newId("acc"), name: input.name, plan: input.plan, role: input.role ?? "customer", created_at: now };
    await this.ds.getRepository(AccountEntity).insert(row);
    return toAccount(row);
  }

  async get(id: string): Promise<Account | null> {
    const row = await this.ds.getRepository(AccountEntity).findOneBy({ id });
    return row ? toAccount(row) : null;
  }
}

const toAccount = (r: AccountRow): Account => ({ id: r.id, name: r.name, plan: r.plan, role: r.role, created_at: iso(r.created_at) });
