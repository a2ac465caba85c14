import {
  systemClock,
  type Clock,
  type MemberDirectory,
  type PaymentLedger,
  type PlanResolver,
  type ReportSink,
  type ScreeningPort,
  type SettingsStore,
  type StatsStore,
  type SupportDesk,
} from "@svc/bot-kernel";
import {
  databasePlanResolver,
  databaseReportSink,
  databaseScreening,
  openBotDataSource,
  TypeOrmBotMemberDirectory,
  TypeOrmBotPaymentLedger,
  TypeOrmBotSettingsStore,
  TypeOrmBotStatsStore,
  TypeOrmBotSupportDesk,
} from "@svc/persistence";
import type { Transformer } from "grammy";
import type { UserFromGetMe } from "grammy/types";
import { Container } from "inversify";
import type { DataSource } from "typeorm";
import { createTelegramApp, PLATFORM, type TelegramApp } from "./bot.js";
import type { TelegramConfig } from "./config.js";

/**
 * The composition root: the only place that knows which adapter implements which port. Every
 * store is a TypeORM adapter on one DataSource, and screening is the API's own composition on it: PostgreSQL when DATABASE_URL is set, else
 * embedded PGlite under SVC_DATA_DIR/pgdata (the API's location). Reports go into the API's
 * report store and `/connect` reads the API's keys, so with a shared database the bot and the
 * API see the same reports, keys and plans.
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
  ledger: Symbol("ledger"),
  app: Symbol("app"),
} as const;

export interface ContainerOverrides {
  /** Another screening engine (tests: fixed verdicts); by default the API's own composition on this database. */
  readonly screening?: ScreeningPort;
  readonly clock?: Clock;
  /** An open DataSource to use instead of the configured one (tests: an in-memory PGlite). The caller closes it. */
  readonly dataSource?: DataSource;
  /** Innermost Bot API transformer and known identity: tests run the bot without a network. */
  readonly transport?: Transformer;
  readonly botInfo?: UserFromGetMe;
}

export interface BotRuntime {
  readonly container: Container;
  readonly app: TelegramApp;
  readonly dataSource: DataSource;
  /** Closes the DataSource if this runtime opened it. */
  close(): Promise<void>;
}

export async function buildContainer(config: TelegramConfig, overrides: ContainerOverrides): Promise<BotRuntime> {
  const dataSource = overrides.dataSource ?? (await openBotDataSource(config));
  const c = new Container({ defaultScope: "Singleton" });
  c.bind<TelegramConfig>(TOKENS.config).toConstantValue(config);
  c.bind<DataSource>(TOKENS.dataSource).toConstantValue(dataSource);
  c.bind<Clock>(TOKENS.clock).toConstantValue(overrides.clock ?? systemClock);
  if (overrides.screening) c.bind<ScreeningPort>(TOKENS.screening).toConstantValue(overrides.screening);
  else c.bind<ScreeningPort>(TOKENS.screening).toResolvedValue((ds: DataSource, clock: Clock) => databaseScreening(ds, clock), [TOKENS.dataSource, TOKENS.clock]);
  c.bind<SettingsStore>(TOKENS.settings).toResolvedValue((ds: DataSource) => new TypeOrmBotSettingsStore(ds, PLATFORM), [TOKENS.dataSource]);
  c.bind<StatsStore>(TOKENS.stats).toResolvedValue((ds: DataSource) => new TypeOrmBotStatsStore(ds, PLATFORM), [TOKENS.dataSource]);
  c.bind<MemberDirectory>(TOKENS.members).toResolvedValue((ds: DataSource) => new TypeOrmBotMemberDirectory(ds, PLATFORM), [TOKENS.dataSource]);
  c.bind<ReportSink>(TOKENS.reports).toResolvedValue((ds: DataSource) => databaseReportSink(ds), [TOKENS.dataSource]);
  c.bind<SupportDesk>(TOKENS.support).toResolvedValue((ds: DataSource) => new TypeOrmBotSupportDesk(ds), [TOKENS.dataSource]);
  c.bind<PaymentLedger>(TOKENS.ledger).toResolvedValue((ds: DataSource) => new TypeOrmBotPaymentLedger(ds), [TOKENS.dataSource]);
  c.bind<PlanResolver>(TOKENS.plans).toResolvedValue(
    (cfg: TelegramConfig, ds: DataSource) =>
      databasePlanResolver(ds, cfg.SVC_BOOTSTRAP_KEY),
    [TOKENS.config, TOKENS.dataSource],
  );
  c.bind<TelegramApp>(TOKENS.app).toResolvedValue(
    (cfg: TelegramConfig, clock: Clock, screening: ScreeningPort, settings: SettingsStore, stats: StatsStore, members: MemberDirectory, reports: ReportSink, support: SupportDesk, plans: PlanResolver, ledger: PaymentLedger) =>
      createTelegramApp({
        token: cfg.TELEGRAM_BOT_TOKEN,
        ...(cfg.TELEGRAM_API_ROOT ? { apiRoot: cfg.TELEGRAM_API_ROOT } : {}),
        ...(overrides.botInfo ? { botInfo: overrides.botInfo } : {}),
        ...(overrides.transport ? { transport: overrides.transport } : {}),
        clock,
        screening,
        settings,
        stats,
        members,
        reports,
        support,
        plans,
        ledger,
        prices: { starter: cfg.TELEGRAM_STARS_STARTER, pro: cfg.TELEGRAM_STARS_PRO },
      }),
    [TOKENS.config, TOKENS.clock, TOKENS.screening, TOKENS.settings, TOKENS.stats, TOKENS.members, TOKENS.reports, TOKENS.support, TOKENS.plans, TOKENS.ledger],
  );
  const ownsDataSource = overrides.dataSource === undefined;
  return {
    container: c,
    app: c.get<TelegramApp>(TOKENS.app),
    dataSource,
    close: async () => {
      // Counters and last-seen times waiting in memory are written before the database closes.
      await c.get<TelegramApp>(TOKENS.app).kernel.close();
      if (ownsDataSource && dataSource.isInitialized) await dataSource.destroy();
    },
  };
}
