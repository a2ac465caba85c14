import { InMemoryIntelIndex } from "@svc/core";
import {
  InMemoryAccountRepository, InMemoryApiKeyRepository, InMemoryCheckRepository, InMemoryGraphRepository,
  InMemoryIdempotencyStore, InMemoryReportRepository, InMemoryUsageCounter,
  accountRepositoryContract, apiKeyRepositoryContract, checkRepositoryContract, graphRepositoryContract,
  idempotencyStoreContract, intelStoreContract, reportRepositoryContract, usageCounterContract,
} from "./index.js";

const close = async (): Promise<void> => {};

checkRepositoryContract("in-memory", async () => {
  const repo = new InMemoryCheckRepository();
  return { repo, tamper: repo.tamper, close };
});
accountRepositoryContract("in-memory", async () => ({ repo: new InMemoryAccountRepository(), close }));
apiKeyRepositoryContract("in-memory", async () => {
  const accounts = new InMemoryAccountRepository();
  return { repo: new InMemoryApiKeyRepository(accounts), accounts, close };
});
idempotencyStoreContract("in-memory", async () => ({ store: new InMemoryIdempotencyStore(), close }));
usageCounterContract("in-memory", async () => ({ counter: new InMemoryUsageCounter(), close }));
reportRepositoryContract("in-memory", async () => ({ repo: new InMemoryReportRepository(), close }));
graphRepositoryContract("in-memory", async () => {
  const repo = new InMemoryGraphRepository();
  return {
    repo, close,
    list: async (id, list, source, at) => repo.evidence.list(id, list, source, at),
    confirmedReport: async (id, trust, at) => repo.evidence.confirmedReport(id, trust, at),
  };
});
intelStoreContract("in-memory (InMemoryIntelIndex)", async () => ({ store: new InMemoryIntelIndex(), close }));
