import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { randomIds, systemClock, type CheckRepository, type Clock, type GraphRepository, type IdGenerator, type IntelStore, type ReportRepository, type ScreeningDeps } from "@svc/core";
import { type AccountRepository, type ApiKeyRepository, type IdempotencyStore, type UsageCounter } from "@svc/server-ports";
import {
  CoalescedRateLimiter, CoalescedUsage, databaseIntel, databaseScreeningDeps, FeedSync, GraphLearner,
  buildReputationProviders, diskSpaceGuard, openDataSource, TypeOrmAccountRepository, TypeOrmApiKeyRepository, TypeOrmCheckRepository, TypeOrmGraphRepository, TypeOrmIdempotencyStore,
  TypeOrmAccountDeletions, TypeOrmBillingStore, TypeOrmBotSupportDesk, TypeOrmCheckReviews, TypeOrmRateLimiter, TypeOrmWebAccountStore, TypeOrmReportRepository,
  TypeOrmServerSecrets, TypeOrmUsageCounter, type ResilientProvider,
} from "@svc/persistence";
import {
  ACCOUNT_PURGE_QUEUE, AddressPolicy, createAccountPurgeQueue, createCheckQueues, PgBossJobQueue, SqlJobQueue, SsrfWebhookUrlGuard, TypeOrmAsyncJobStore, TypeOrmWebhookSecretStore,
} from "@svc/jobs";
import type { JobQueue } from "@svc/server-ports";
import type { EntityManager } from "typeorm";
import { Container, type ServiceIdentifier } from "inversify";
import type { Logger } from "pino";
import type { DataSource } from "typeorm";
import { CachedAccounts, CachedKeys } from "./auth-cache.js";
import { auditKeysOf, type AuditKeys } from "./audit-keys.js";
import { providerSettings, type Config } from "./config.js";
import { createLogger } from "./logger.js";
import { GroupCommitCheckRepository } from "./group-commit.js";
import { StripeBilling, stripeClient } from "./billing/stripe-billing.js";
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
  Providers: token<ResilientProvider[]>("Providers"),
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
  c.bind(T.Intel).toResolvedValue((ds: DataSource) => databaseIntel(ds), [T.DataSource]);
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
  await createAccountPurgeQueue(queue);
  c.bind(T.JobQueue).toConstantValue(queue);
  c.bind(T.Async).toResolvedValue((ds: DataSource): AsyncServices => ({
    jobs: new TypeOrmAsyncJobStore(ds, queue),
    webhookSecrets: new TypeOrmWebhookSecretStore(ds),
    webhookUrls: new SsrfWebhookUrlGuard(new AddressPolicy(config.SVC_WEBHOOK_ALLOWED_CIDRS)),
  }), [T.DataSource]);
  // Outside reputation providers (SVC_PROVIDERS; none by default), their answers cached in the database.
  c.bind(T.Providers).toResolvedValue(
    (ds: DataSource, clock: Clock) => buildReputationProviders(providerSettings(config), { dataSource: ds, clock }),
    [T.DataSource, T.Clock],
  );
  // The evidence a check reads is coalesced across concurrent checks (batched.ts).
  c.bind(T.Screening).toResolvedValue(
    // The composition the chat bots screen through too (@svc/persistence screening-composition), plus the outside providers.
    (intel: IntelStore, ds: DataSource, clock: Clock, ids: IdGenerator, providers: ResilientProvider[]): ScreeningDeps => ({
      ...databaseScreeningDeps(ds, { intel, clock, ids }),
      sourceTimeoutMs: config.SVC_SOURCE_TIMEOUT_MS,
      ...(providers.length > 0 ? { providers } : {}),
    }),
    [T.Intel, T.DataSource, T.Clock, T.Ids, T.Providers],
  );
  const billing = config.SVC_STRIPE_SECRET_KEY
    ? new StripeBilling(
      stripeClient({ secretKey: config.SVC_STRIPE_SECRET_KEY, ...(config.SVC_STRIPE_API_URL ? { apiUrl: config.SVC_STRIPE_API_URL } : {}) }),
      new TypeOrmBillingStore(dataSource),
      {
        secretKey: config.SVC_STRIPE_SECRET_KEY,
        webhookSecret: config.SVC_STRIPE_WEBHOOK_SECRET as string,
        prices: { starter: config.SVC_STRIPE_PRICE_STARTER as string, pro: config.SVC_STRIPE_PRICE_PRO as string },
        toleranceSeconds: config.SVC_STRIPE_WEBHOOK_TOLERANCE_SECONDS,
      },
      config.SVC_PLANS, c.get(T.Clock), logger,
      // A plan change is seen by this process's next request (other replicas: within the cache's 5 s).
      (accountId) => {
        (c.get(T.Accounts) as CachedAccounts).forget(accountId);
        (c.get(T.Keys) as CachedKeys).forgetAccount(accountId);
      },
    )
    : null;
  const dataHandling = {
    deletions: new TypeOrmAccountDeletions(dataSource),
    reviews: new TypeOrmCheckReviews(dataSource),
    deletionDelayDays: config.SVC_DELETION_DELAY_DAYS,
    schedulePurge: async (id: string, at: Date) => {
      await queue.send(ACCOUNT_PURGE_QUEUE, { deletion_id: id }, { startAfter: at });
    },
  };
  const cursorKey = new TextEncoder().encode(await new TypeOrmServerSecrets(dataSource).get("history-cursor", c.get(T.Clock).now()));
  c.bind(T.Services).toResolvedValue(
    (screening: ScreeningDeps, accounts: AccountRepository, keys: ApiKeyRepository, checks: CheckRepository, usage: UsageCounter, idempotency: IdempotencyStore, reports: ReportRepository, graph: GraphRepository, clock: Clock, ids: IdGenerator, logger: Logger): ApiServices => ({
      screening, accounts, keys, checks, usage, idempotency, reports, graph, clock, ids, logger,
      rates: new CoalescedRateLimiter(new TypeOrmRateLimiter(dataSource)),
      plans: config.SVC_PLANS,
      ready: async () => (await dataSource.query("SELECT 1 AS ok")).length === 1,
      bodyLimitBytes: config.SVC_BODY_LIMIT_BYTES,
      ...(dataDir !== undefined && dataDir !== "memory://" && config.SVC_DATA_DIR_MIN_FREE_MB > 0
        ? { diskSpace: diskSpaceGuard(dataDir, config.SVC_DATA_DIR_MIN_FREE_MB * 1024 * 1024, {
          onChange: (short, free) => short
            ? logger.error({ data_dir: dataDir, free_mb: Math.floor(free / 1048576), min_free_mb: config.SVC_DATA_DIR_MIN_FREE_MB }, "data directory nearly full: writes refused until space is freed")
            : logger.info({ data_dir: dataDir, free_mb: Math.floor(free / 1048576) }, "data directory has room again: writes accepted"),
        }) }
        : {}),
      background: new BackgroundTasks(),
      graphLearner: new GraphLearner(new TypeOrmGraphRepository(dataSource)),
      async: c.get(T.Async),
      cursorKey,
      billing,
      ...(config.SVC_BILLING_RETURN_URL ? { billingReturnUrl: config.SVC_BILLING_RETURN_URL } : {}),
      dataHandling,
      support: new TypeOrmBotSupportDesk(dataSource),
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
