import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import {
  combineIntelStores, defaultImpersonationIndex, defaultReference, InMemoryIntelIndex, officialIntel, randomIds, systemClock,
  type AccountRepository, type ApiKeyRepository, type CheckRepository, type Clock, type GraphRepository, type IdGenerator, type IdempotencyStore,
  type IntelStore, type ReportRepository, type ScreeningDeps, type UsageCounter,
} from "@svc/core";
import {
  CoalescedGraphProximity, CoalescedIntel, CoalescedRateLimiter, CoalescedReportEvidence, CoalescedUsage, FeedSync, GraphLearner,
  openDataSource, TypeOrmAccountRepository, TypeOrmApiKeyRepository, TypeOrmCheckRepository, TypeOrmGraphRepository, TypeOrmIdempotencyStore,
  TypeOrmIntelStore, TypeOrmRateLimiter, TypeOrmWebAccountStore, TypeOrmReportRepository, TypeOrmServerSecrets, TypeOrmUsageCounter,
} from "@svc/persistence";
import {
  AddressPolicy, createCheckQueues, PgBossJobQueue, SqlJobQueue, SsrfWebhookUrlGuard, TypeOrmAsyncJobStore, TypeOrmWebhookSecretStore,
} from "@svc/jobs";
import type { JobQueue } from "@svc/core";
import type { EntityManager } from "typeorm";
import { Container, type ServiceIdentifier } from "inversify";
import type { Logger } from "pino";
import type { DataSource } from "typeorm";
import { CachedAccounts, CachedKeys } from "./auth-cache.js";
import { auditKeysOf, type AuditKeys } from "./audit-keys.js";
import type { Config } from "./config.js";
import { createLogger } from "./logger.js";
import { GroupCommitCheckRepository } from "./group-commit.js";
import { BackgroundTasks, type ApiServices, type AsyncServices } from "./services.js";
import { SmtpMailer, UnsentMailer } from "./web/mailer.js";
import { oauthProviders } from "./web/oauth.js";

const token = <T>(name: string) => Symbol.for(`svc.${name}`) as ServiceIdentifier<T>;
export const T = {
  Config: token<Config>("Config"),
  DataSource: token<DataSource>("DataSource"),
  Clock: token<Clock>("Clock"),
  Ids: token<IdGenerator>("Ids"),
  Logger: token<Logger>("Logger"),
  Accounts: token<AccountRepository>("Accounts"),
  Keys: token<ApiKeyRepository>("Keys"),
  Checks: token<CheckRepository>("Checks"),
  Usage: token<UsageCounter>("Usage"),
  Idempotency: token<IdempotencyStore>("Idempotency"),
  Reports: token<ReportRepository>("Reports"),
  Graph: token<GraphRepository>("Graph"),
  Intel: token<IntelStore>("Intel"),
  Screening: token<ScreeningDeps>("Screening"),
  Services: token<ApiServices>("Services"),
  JobQueue: token<JobQueue<EntityManager>>("JobQueue"),
  Async: token<AsyncServices>("Async"),
  AuditKeys: token<AuditKeys>("AuditKeys"),
  Feeds: token<FeedSync>("Feeds"),
};

export interface Runtime {
  readonly services: ApiServices;
  readonly dataSource: DataSource;
  readonly container: Container;
  close(): Promise<void>;
}

/** Server mode: a query unanswered this long fails as 503 (retryable) instead of holding the request. */
const DB_QUERY_TIMEOUT_MS = 10_000;

/**
 * The composition root: the only place that knows the concrete adapters. PostgreSQL when
 * DATABASE_URL is set, else embedded PGlite under SVC_DATA_DIR.
 */
export async function buildRuntime(config: Config, overrides: { logger?: Logger; clock?: Clock } = {}): Promise<Runtime> {
  let dataDir: string | undefined;
  if (!config.DATABASE_URL) {
    dataDir = config.SVC_DATA_DIR === "memory://" ? "memory://" : resolve(config.SVC_DATA_DIR, "pgdata");
    if (dataDir !== "memory://") mkdirSync(dataDir, { recursive: true });
  }
  const auditKeys = auditKeysOf(config);
  const dataSource = await openDataSource(config.DATABASE_URL ? { url: config.DATABASE_URL, queryTimeoutMs: DB_QUERY_TIMEOUT_MS } : { dataDir });
  // Chains last written before keyed hashing get a sealed head (their records stay as they are).
  await new TypeOrmCheckRepository(dataSource, auditKeys.keyring).sealUnsealedHeads();
  const c = new Container({ defaultScope: "Singleton" });
  c.bind(T.Config).toConstantValue(config);
  c.bind(T.DataSource).toConstantValue(dataSource);
  c.bind(T.AuditKeys).toConstantValue(auditKeys);
  c.bind(T.Clock).toConstantValue(overrides.clock ?? systemClock);
  c.bind(T.Ids).toResolvedValue((clock: Clock) => randomIds(clock), [T.Clock]);
  c.bind(T.Logger).toConstantValue(overrides.logger ?? createLogger(config.LOG_LEVEL));
  c.bind(T.Accounts).toResolvedValue((ds: DataSource, clock: Clock) => new CachedAccounts(new TypeOrmAccountRepository(ds), clock), [T.DataSource, T.Clock]);
  c.bind(T.Keys).toResolvedValue((ds: DataSource, clock: Clock) => new CachedKeys(new TypeOrmApiKeyRepository(ds), clock), [T.DataSource, T.Clock]);
  c.bind(T.Checks).toResolvedValue((ds: DataSource) => new GroupCommitCheckRepository(new TypeOrmCheckRepository(ds, auditKeys.keyring)), [T.DataSource]);
  c.bind(T.Usage).toResolvedValue((ds: DataSource) => new CoalescedUsage(new TypeOrmUsageCounter(ds)), [T.DataSource]);
  c.bind(T.Idempotency).toResolvedValue((ds: DataSource) => new TypeOrmIdempotencyStore(ds), [T.DataSource]);
  c.bind(T.Reports).toResolvedValue((ds: DataSource) => new TypeOrmReportRepository(ds), [T.DataSource]);
  c.bind(T.Graph).toResolvedValue((ds: DataSource) => new TypeOrmGraphRepository(ds), [T.DataSource]);
  // Official brand domains are bundled (in memory); imported lists live in the database.
  c.bind(T.Intel).toResolvedValue((ds: DataSource) => combineIntelStores(InMemoryIntelIndex.from(officialIntel()), new CoalescedIntel(new TypeOrmIntelStore(ds))), [T.DataSource]);
  // Live feeds (SVC_FEEDS) into the same intel table: `svc intel sync`, or the schedule of the worker.
  c.bind(T.Feeds).toResolvedValue(
    (ds: DataSource, clock: Clock, logger: Logger) => new FeedSync(ds, config.SVC_FEEDS, { clock, log: (level, obj, msg) => logger[level](obj, msg) }),
    [T.DataSource, T.Clock, T.Logger],
  );
  // Jobs: pg-boss on PostgreSQL (its own schema, installed on first start); a leased table on PGlite.
  const logger = c.get(T.Logger);
  const queue: JobQueue<EntityManager> = config.DATABASE_URL
    ? await new PgBossJobQueue({ connectionString: config.DATABASE_URL, logger, maxConnections: 4 }).start()
    : new SqlJobQueue(dataSource, { logger, singleProcess: true });
  await createCheckQueues(queue);
  c.bind(T.JobQueue).toConstantValue(queue);
  c.bind(T.Async).toResolvedValue((ds: DataSource): AsyncServices => ({
    jobs: new TypeOrmAsyncJobStore(ds, queue),
    webhookSecrets: new TypeOrmWebhookSecretStore(ds),
    webhookUrls: new SsrfWebhookUrlGuard(new AddressPolicy(config.SVC_WEBHOOK_ALLOWED_CIDRS)),
  }), [T.DataSource]);
  // The evidence a check reads is coalesced across concurrent checks (batched.ts).
  c.bind(T.Screening).toResolvedValue(
    (intel: IntelStore, ds: DataSource, clock: Clock, ids: IdGenerator): ScreeningDeps => ({
      reference: defaultReference(), impersonation: defaultImpersonationIndex(), intel, clock, ids,
      reports: new CoalescedReportEvidence(new TypeOrmReportRepository(ds)),
      graph: new CoalescedGraphProximity(new TypeOrmGraphRepository(ds)),
    }),
    [T.Intel, T.DataSource, T.Clock, T.Ids],
  );
  const cursorKey = new TextEncoder().encode(await new TypeOrmServerSecrets(dataSource).get("history-cursor", c.get(T.Clock).now()));
  c.bind(T.Services).toResolvedValue(
    (screening: ScreeningDeps, accounts: AccountRepository, keys: ApiKeyRepository, checks: CheckRepository, usage: UsageCounter, idempotency: IdempotencyStore, reports: ReportRepository, graph: GraphRepository, clock: Clock, ids: IdGenerator, logger: Logger): ApiServices => ({
      screening, accounts, keys, checks, usage, idempotency, reports, graph, clock, ids, logger,
      rates: new CoalescedRateLimiter(new TypeOrmRateLimiter(dataSource)),
      plans: config.SVC_PLANS,
      ready: async () => (await dataSource.query("SELECT 1 AS ok")).length === 1,
      bodyLimitBytes: config.SVC_BODY_LIMIT_BYTES,
      background: new BackgroundTasks(),
      graphLearner: new GraphLearner(new TypeOrmGraphRepository(dataSource)),
      async: c.get(T.Async),
      cursorKey,
      web: {
        store: new TypeOrmWebAccountStore(dataSource),
        mailer: config.SVC_SMTP_URL ? new SmtpMailer(config.SVC_SMTP_URL, config.SVC_MAIL_FROM) : new UnsentMailer(logger),
        oauth: oauthProviders(config),
        publicUrl: config.SVC_PUBLIC_URL,
        loginAttemptsPerMinute: config.SVC_LOGIN_ATTEMPTS_PER_MINUTE,
      },
    }),
    [T.Screening, T.Accounts, T.Keys, T.Checks, T.Usage, T.Idempotency, T.Reports, T.Graph, T.Clock, T.Ids, T.Logger],
  );
  const services = c.get(T.Services);
  return {
    services, dataSource, container: c,
    close: async () => {
      await services.background.drain();
      await queue.stop({ timeoutMs: 30_000 });
      await dataSource.destroy();
    },
  };
}
