import { systemClock, type Clock, type MemberDirectory, type PlanResolver, type ReportSink, type ScreeningPort, type SettingsStore, type StatsStore, type SupportDesk } from "@svc/bot-kernel";
import {
  databasePlanResolver,
  databaseReportSink,
  databaseScreening,
  openBotDataSource,
  TypeOrmBotMemberDirectory,
  TypeOrmBotSettingsStore,
  TypeOrmBotStatsStore,
  TypeOrmBotSupportDesk,
} from "@svc/persistence";
import { Container } from "inversify";
import type { DataSource } from "typeorm";
import { createDiscordApp, PLATFORM, type DiscordApp } from "./bot.js";
import type { DiscordConfig } from "./config.js";

/**
 * The composition root: the only place that knows which adapter implements which port. Every
 * store is a TypeORM adapter on one DataSource (PostgreSQL with DATABASE_URL, else embedded
 * PGlite under SVC_DATA_DIR/pgdata); reports go into the API's report store and /connect reads
 * the API's keys, so with a shared database the bot and the API agree on reports and plans.
 */
export const TOKENS = {
  config: Symbol("config"),
  dataSource: Symbol("dataSource"),
  clock: Symbol("clock"),
  screening: Symbol("screening"),
  settings: Symbol("settings"),
  stats: Symbol("stats"),
  members: Symbol("members"),
  reports: Symbol("reports"),
  support: Symbol("support"),
  plans: Symbol("plans"),
  app: Symbol("app"),
} as const;

export interface ContainerOverrides {
  /** Another screening engine (tests: fixed verdicts); by default the API's own composition on this database. */
  readonly screening?: ScreeningPort;
  readonly clock?: Clock;
  /** An open DataSource to use instead of the configured one (tests). The caller closes it. */
  readonly dataSource?: DataSource;
  readonly onError?: (error: unknown) => void;
}

export interface BotRuntime {
  readonly container: Container;
  readonly app: DiscordApp;
  readonly dataSource: DataSource;
  /** Stops the client and closes the DataSource if this runtime opened it. */
  close(): Promise<void>;
}

export async function buildContainer(config: DiscordConfig, overrides: ContainerOverrides): Promise<BotRuntime> {
  const dataSource = overrides.dataSource ?? (await openBotDataSource(config));
  const c = new Container({ defaultScope: "Singleton" });
  c.bind<DiscordConfig>(TOKENS.config).toConstantValue(config);
  c.bind<DataSource>(TOKENS.dataSource).toConstantValue(dataSource);
  c.bind<Clock>(TOKENS.clock).toConstantValue(overrides.clock ?? systemClock);
  if (overrides.screening) c.bind<ScreeningPort>(TOKENS.screening).toConstantValue(overrides.screening);
  else c.bind<ScreeningPort>(TOKENS.screening).toResolvedValue((ds: DataSource, clock: Clock) => databaseScreening(ds, clock), [TOKENS.dataSource, TOKENS.clock]);
  c.bind<SettingsStore>(TOKENS.settings).toResolvedValue((ds: DataSource) => new TypeOrmBotSettingsStore(ds, PLATFORM), [TOKENS.dataSource]);
  c.bind<StatsStore>(TOKENS.stats).toResolvedValue((ds: DataSource) => new TypeOrmBotStatsStore(ds, PLATFORM), [TOKENS.dataSource]);
  c.bind<MemberDirectory>(TOKENS.members).toResolvedValue((ds: DataSource) => new TypeOrmBotMemberDirectory(ds, PLATFORM), [TOKENS.dataSource]);
  c.bind<ReportSink>(TOKENS.reports).toResolvedValue((ds: DataSource) => databaseReportSink(ds), [TOKENS.dataSource]);
  c.bind<SupportDesk>(TOKENS.support).toResolvedValue((ds: DataSource) => new TypeOrmBotSupportDesk(ds), [TOKENS.dataSource]);
  c.bind<PlanResolver>(TOKENS.plans).toResolvedValue(
    (cfg: DiscordConfig, ds: DataSource) =>
      databasePlanResolver(ds, cfg.SVC_BOOTSTRAP_KEY),
    [TOKENS.config, TOKENS.dataSource],
  );
  c.bind<DiscordApp>(TOKENS.app).toResolvedValue(
    (cfg: DiscordConfig, clock: Clock, screening: ScreeningPort, settings: SettingsStore, stats: StatsStore, members: MemberDirectory, reports: ReportSink, support: SupportDesk, plans: PlanResolver) =>
      createDiscordApp({
        token: cfg.DISCORD_TOKEN,
        applicationId: cfg.DISCORD_APPLICATION_ID,
        ...(cfg.DISCORD_API_ROOT ? { apiRoot: cfg.DISCORD_API_ROOT } : {}),
        ...(overrides.onError ? { onError: overrides.onError } : {}),
        clock,
        screening,
        settings,
        stats,
        members,
        reports,
        support,
        plans,
      }),
    [TOKENS.config, TOKENS.clock, TOKENS.screening, TOKENS.settings, TOKENS.stats, TOKENS.members, TOKENS.reports, TOKENS.support, TOKENS.plans],
  );
  const ownsDataSource = overrides.dataSource === undefined;
  const app = c.get<DiscordApp>(TOKENS.app);
  return {
    container: c,
    app,
    dataSource,
    close: async () => {
      await app.stop();
      // Counters and last-seen times waiting in memory are written before the database closes.
      await app.kernel.close();
      if (ownsDataSource && dataSource.isInitialized) await dataSource.destroy();
    },
  };
}
