import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import type { Clock, CommunityReport, PlanResolver, PlanTier, ReportSink, ScreeningPort } from "@svc/bot-kernel";
import { randomIds, screenEntity, type ReportRepository } from "@svc/core";
import { apiKeyFromSecret, hashApiKey, type AccountRepository, type ApiKeyRepository } from "@svc/server-ports";
import { countCheck } from "@svc/metrics";
import type { DataSource } from "typeorm";
import { openDataSource } from "./data-source.js";
import { databaseScreeningDeps } from "./screening-composition.js";
import { dataDirInUseCause } from "./data-dir-lock.js";
import { TypeOrmAccountRepository } from "./repositories/typeorm-account-repository.js";
import { TypeOrmApiKeyRepository } from "./repositories/typeorm-api-key-repository.js";
import { TypeOrmReportRepository } from "./repositories/typeorm-report-repository.js";

/*
 * The chat bots' view of the API's data, shared by every bot app (Telegram, Discord, Slack,
 * WhatsApp): `/connect` reads the API's key store and `/report` writes the API's report store,
 * on whatever database the bot opened. A bot binds only the keys of the database it shares.
 */

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


/**
 * Community reports from chat into the API's report store (the one `/v1/report` writes), so
 * they feed screening like any other report. The reporter is `platform:userId` (the API's own
 * are `account:…`): one user reporting one entity again replaces the earlier report, across
 * every chat. The report keeps which chat it came from; the message around it is never passed.
 */
export class ReportRepositorySink implements ReportSink {
  constructor(private readonly reports: ReportRepository) {}

  async file(r: CommunityReport): Promise<{ readonly id: string }> {
    const { report } = await this.reports.file(
      {
        reporter_id: `${r.reporter.platform}:${r.reporter.userId}`,
        entity: { type: r.entity.type, value: r.entity.value, id: r.entity.id },
        category: r.category,
        description: `Filed from ${r.channel.platform} chat ${r.channel.chatId}`,
        feedback: r.feedback ?? null,
      },
      new Date(r.reportedAt),
    );
    return { id: report.id };
  }
}

/**
 * `/connect` on a database: the API's keys and accounts there, plus the deployment's bootstrap
 * key (`SVC_BOOTSTRAP_KEY`, resolving to pro) while that database has never heard of it.
 */
export function databasePlanResolver(ds: DataSource, bootstrapSecret?: string): PlanResolver {
  return new ApiKeyPlanResolver(new TypeOrmApiKeyRepository(ds), new TypeOrmAccountRepository(ds), {
    ...(bootstrapSecret ? { bootstrap: { keyHash: hashApiKey(apiKeyFromSecret(bootstrapSecret)), plan: "pro" as const } } : {}),
  });
}

/** `/report` on a database: into the API's report store there. */
export function databaseReportSink(ds: DataSource): ReportSink {
  return new ReportRepositorySink(new TypeOrmReportRepository(ds));
}

/**
 * The one line a bot prints and exits on when its embedded data directory is held by another
 * svc process (PGlite is one process's database); null for any other start-up error.
 */
export function botDataDirInUseLine(dataDir: string, e: unknown): string | null {
  const inUse = dataDirInUseCause(e);
  if (!inUse) return null;
  return `svc: the data directory ${dataDir} is in use by another svc process${inUse.pid > 0 ? ` (pid ${inUse.pid})` : ""}; stop it, or run the bot on the API's database with DATABASE_URL (or give it its own SVC_DATA_DIR, which knows only the bootstrap key)`;
}

/**
 * A bot's database: PostgreSQL when `DATABASE_URL` is set (the API's, to share keys, reports and
 * plans), else embedded PGlite under `SVC_DATA_DIR/pgdata` (`memory://` keeps it in memory).
 */
export async function openBotDataSource(config: { readonly DATABASE_URL?: string | undefined; readonly SVC_DATA_DIR: string }): Promise<DataSource> {
  if (config.DATABASE_URL) return openDataSource({ url: config.DATABASE_URL });
  if (config.SVC_DATA_DIR === "memory://") return openDataSource({ dataDir: "memory://" });
  const dataDir = resolve(config.SVC_DATA_DIR, "pgdata");
  mkdirSync(dataDir, { recursive: true });
  return openDataSource({ dataDir });
}

/**
 * The bots' screening port over the API's composition on the same database
 * (`databaseScreeningDeps`): imported intel lists, moderated community reports (the bots'
 * `/report` included once an operator confirms them) and the entity graph reach a bot's
 * verdicts as they reach the API's.
 */
export function databaseScreening(ds: DataSource, clock: Clock): ScreeningPort {
  const deps = databaseScreeningDeps(ds, { clock, ids: randomIds(clock) });
  return {
    screen: async (value) => {
      const r = await screenEntity({ entity_value: value }, deps);
      if (r.ok) countCheck("bot", r.entity.type, r.verdict.risk_level);
      return r.ok ? r.verdict : { error: r.error };
    },
  };
}
