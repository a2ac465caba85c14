import { randomIds, systemClock, type Clock, type IntelStore } from "@svc/core";
import type { JobQueue } from "@svc/server-ports";
import { ACCOUNT_PURGE_QUEUE, AddressPolicy, SsrfWebhookUrlGuard, TypeOrmAsyncJobStore, TypeOrmWebhookSecretStore } from "@svc/jobs";
import {
  CoalescedRateLimiter, CoalescedUsage, databaseIntel, diskSpaceGuard, FeedSync, GraphLearner, TypeOrmAccountDeletions, TypeOrmAccountRepository, TypeOrmApiKeyRepository,
  TypeOrmBillingStore, TypeOrmBotSupportDesk, TypeOrmCheckRepository, TypeOrmCheckReviews, TypeOrmGraphRepository, TypeOrmIdempotencyStore, TypeOrmRateLimiter, InProcessRateLimiter, TypeOrmReportRepository,
  TypeOrmServerSecrets, TypeOrmUsageCounter, TypeOrmWebAccountStore,
} from "@svc/persistence";
import {
  auditKeysOf, createLogger, embeddedDataDir, openJobQueue, openStorage, providerSettings, reputationProviders, screeningDeps, type AuditKeys, type Config, type Logger,
} from "@svc/runtime";
import type { DataSource, EntityManager } from "typeorm";
import { CachedAccounts, CachedKeys } from "./auth-cache.js";
import { StripeBilling, stripeClient } from "./billing/stripe-billing.js";
import { GroupCommitCheckRepository } from "./group-commit.js";
import { BackgroundTasks, type ApiServices, type AsyncServices } from "./services.js";
import { SmtpMailer, UnsentMailer } from "./web/mailer.js";
import { oauthProviders } from "./web/oauth.js";

/** What the API process (and `svc` on a local database) runs on. */
export interface Runtime {
  readonly config: Config;
  readonly services: ApiServices;
  readonly dataSource: DataSource;
  readonly auditKeys: AuditKeys;
  readonly queue: JobQueue<EntityManager>;
  /** Live feeds (SVC_FEEDS) into the intel table: `svc intel sync`, or the worker's schedule. */
  readonly feeds: FeedSync;
  /** The intel store checks read (bundled brand domains plus the database's lists). */
  readonly intel: IntelStore;
  close(): Promise<void>;
}

/** Server mode: a query unanswered this long fails as 503 (retryable) instead of holding the request. */
const DB_QUERY_TIMEOUT_MS = 10_000;

/**
 * The API's composition: the storage, screening and job queue of @svc/runtime, plus the
 * server's own services (cached auth, grouped audit writes, billing, mail, sign-in). Plain
 * factories, each part built once in order (docs/decisions/0062-plain-factories.md).
 */
export async function buildRuntime(config: Config, overrides: { logger?: Logger; clock?: Clock } = {}): Promise<Runtime> {
  const auditKeys = auditKeysOf(config);
  const dataSource = await openStorage(config, { queryTimeoutMs: DB_QUERY_TIMEOUT_MS });
  // Chains last written before keyed hashing get a sealed head (their records stay as they are).
  await new TypeOrmCheckRepository(dataSource, auditKeys.keyring).sealUnsealedHeads();
  const clock = overrides.clock ?? systemClock;
  const ids = randomIds(clock);
  const logger = overrides.logger ?? createLogger(config.LOG_LEVEL, { app: "api" });
  const accounts = new CachedAccounts(new TypeOrmAccountRepository(dataSource), clock);
  const keys = new CachedKeys(new TypeOrmApiKeyRepository(dataSource), clock);
  // Official brand domains are bundled (in memory); imported lists live in the database.
  const intel = databaseIntel(dataSource);
  const feeds = new FeedSync(dataSource, config.SVC_FEEDS, { clock, log: (level, obj, msg) => logger[level](obj, msg) });
  // Jobs: pg-boss on PostgreSQL; a leased table on PGlite.
  const queue = await openJobQueue(config, dataSource, { logger });
  const async: AsyncServices = {
    jobs: new TypeOrmAsyncJobStore(dataSource, queue),
    webhookSecrets: new TypeOrmWebhookSecretStore(dataSource),
    webhookUrls: new SsrfWebhookUrlGuard(new AddressPolicy(config.SVC_WEBHOOK_ALLOWED_CIDRS)),
  };
  // The evidence a check reads is coalesced across concurrent checks; outside providers (SVC_PROVIDERS) too.
  const screening = screeningDeps(dataSource, {
    intel, clock, ids,
    sourceTimeoutMs: config.SVC_SOURCE_TIMEOUT_MS,
    providers: reputationProviders(providerSettings(config), dataSource, clock),
  });
  const billing = config.SVC_STRIPE_SECRET_KEY
    ? new StripeBilling(
      await stripeClient({ secretKey: config.SVC_STRIPE_SECRET_KEY, ...(config.SVC_STRIPE_API_URL ? { apiUrl: config.SVC_STRIPE_API_URL } : {}) }),
      new TypeOrmBillingStore(dataSource),
      {
        secretKey: config.SVC_STRIPE_SECRET_KEY,
        webhookSecret: config.SVC_STRIPE_WEBHOOK_SECRET as string,
        prices: { starter: config.SVC_STRIPE_PRICE_STARTER as string, pro: config.SVC_STRIPE_PRICE_PRO as string },
        toleranceSeconds: config.SVC_STRIPE_WEBHOOK_TOLERANCE_SECONDS,
      },
      config.SVC_PLANS, clock, logger,
      // A plan change is seen by this process's next request (other replicas: within the cache's 5 s).
      (accountId) => {
        accounts.forget(accountId);
        keys.forgetAccount(accountId);
      },
    )
    : null;
  // Embedded mode keeps a disk reserve: writes are refused while the data directory is nearly full (decision 0046).
  const dataDir = embeddedDataDir(config);
  const diskSpace = dataDir !== null && dataDir !== "memory://" && config.SVC_DATA_DIR_MIN_FREE_MB > 0
    ? diskSpaceGuard(dataDir, config.SVC_DATA_DIR_MIN_FREE_MB * 1024 * 1024, {
      onChange: (short, free) => short
        ? logger.error({ data_dir: dataDir, free_mb: Math.floor(free / 1048576), min_free_mb: config.SVC_DATA_DIR_MIN_FREE_MB }, "data directory nearly full: writes refused until space is freed")
        : logger.info({ data_dir: dataDir, free_mb: Math.floor(free / 1048576) }, "data directory has room again: writes accepted"),
    })
    : null;
  const cursorKey = new TextEncoder().encode(await new TypeOrmServerSecrets(dataSource).get("history-cursor", clock.now()));
  const services: ApiServices = {
    screening, accounts, keys, clock, ids, logger, async, cursorKey, billing,
    checks: new GroupCommitCheckRepository(new TypeOrmCheckRepository(dataSource, auditKeys.keyring)),
    usage: new CoalescedUsage(new TypeOrmUsageCounter(dataSource)),
    idempotency: new TypeOrmIdempotencyStore(dataSource),
    reports: new TypeOrmReportRepository(dataSource),
    graph: new TypeOrmGraphRepository(dataSource),
    // The embedded database is one process's (its directory is locked): its per-minute windows
    // are kept in memory; on PostgreSQL every replica takes from the same rows (decision 0097).
    rates: dataDir !== null ? new InProcessRateLimiter() : new CoalescedRateLimiter(new TypeOrmRateLimiter(dataSource)),
    plans: config.SVC_PLANS,
    ready: async () => (await dataSource.query("SELECT 1 AS ok")).length === 1,
    bodyLimitBytes: config.SVC_BODY_LIMIT_BYTES,
    ...(diskSpace ? { diskSpace } : {}),
    background: new BackgroundTasks(),
    graphLearner: new GraphLearner(new TypeOrmGraphRepository(dataSource)),
    ...(config.SVC_BILLING_RETURN_URL ? { billingReturnUrl: config.SVC_BILLING_RETURN_URL } : {}),
    dataHandling: {
      deletions: new TypeOrmAccountDeletions(dataSource),
      reviews: new TypeOrmCheckReviews(dataSource),
      deletionDelayDays: config.SVC_DELETION_DELAY_DAYS,
      schedulePurge: async (id: string, at: Date) => {
        await queue.send(ACCOUNT_PURGE_QUEUE, { deletion_id: id }, { startAfter: at });
      },
    },
    support: new TypeOrmBotSupportDesk(dataSource),
    web: {
      store: new TypeOrmWebAccountStore(dataSource),
      mailer: config.SVC_SMTP_URL ? await SmtpMailer.open(config.SVC_SMTP_URL, config.SVC_MAIL_FROM) : new UnsentMailer(logger),
      oauth: await oauthProviders(config),
      publicUrl: config.SVC_PUBLIC_URL,
      loginAttemptsPerMinute: config.SVC_LOGIN_ATTEMPTS_PER_MINUTE,
    },
  };
  return {
    config, services, dataSource, auditKeys, queue, feeds, intel,
    close: async () => {
      await services.background.drain();
      await queue.stop({ timeoutMs: 30_000 });
      await dataSource.destroy();
    },
  };
}
