import {
  InMemoryMemberDirectory,
  InMemoryPaymentLedger,
  InMemoryPlanResolver,
  InMemoryReportSink,
  InMemorySettingsStore,
  InMemoryStatsStore,
  InMemorySupportDesk,
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
import { apiKeyFromSecret } from "@svc/core";
import { Container } from "inversify";
import { createTelegramApp, type TelegramApp } from "./bot.js";
import type { TelegramConfig } from "./config.js";

/**
 * The composition root: the only place that knows which adapter implements which port.
 * Today every store is the kernel's in-memory one (the embedded default); the lead swaps in
 * TypeORM adapters here without touching the bot or the kernel.
 */
export const TOKENS = {
  config: Symbol("config"),
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
  readonly screening: ScreeningPort;
  readonly clock?: Clock;
}

export function buildContainer(config: TelegramConfig, overrides: ContainerOverrides): Container {
  const c = new Container({ defaultScope: "Singleton" });
  c.bind<TelegramConfig>(TOKENS.config).toConstantValue(config);
  c.bind<Clock>(TOKENS.clock).toConstantValue(overrides.clock ?? systemClock);
  c.bind<ScreeningPort>(TOKENS.screening).toConstantValue(overrides.screening);
  c.bind<SettingsStore>(TOKENS.settings).toConstantValue(new InMemorySettingsStore());
  c.bind<StatsStore>(TOKENS.stats).toConstantValue(new InMemoryStatsStore());
  c.bind<MemberDirectory>(TOKENS.members).toConstantValue(new InMemoryMemberDirectory());
  c.bind<ReportSink>(TOKENS.reports).toConstantValue(new InMemoryReportSink());
  c.bind<SupportDesk>(TOKENS.support).toConstantValue(new InMemorySupportDesk());
  c.bind<PaymentLedger>(TOKENS.ledger).toConstantValue(new InMemoryPaymentLedger());
  c.bind<PlanResolver>(TOKENS.plans).toResolvedValue(
    (cfg: TelegramConfig) => {
      // Until the API's key store is reachable from here, only the bootstrap key resolves.
      const r = new InMemoryPlanResolver();
      if (cfg.SVC_BOOTSTRAP_KEY) r.add(apiKeyFromSecret(cfg.SVC_BOOTSTRAP_KEY), "pro");
      return r;
    },
    [TOKENS.config],
  );
  c.bind<TelegramApp>(TOKENS.app).toResolvedValue(
    (cfg: TelegramConfig, clock: Clock, screening: ScreeningPort, settings: SettingsStore, stats: StatsStore, members: MemberDirectory, reports: ReportSink, support: SupportDesk, plans: PlanResolver, ledger: PaymentLedger) =>
      createTelegramApp({
        token: cfg.TELEGRAM_BOT_TOKEN,
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
  return c;
}
