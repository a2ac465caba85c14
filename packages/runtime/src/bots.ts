import { randomIds, type IdGenerator } from "@svc/core";
import { systemClock, type Clock, type KernelStores, type PaymentLedger, type PlanResolver, type ScreeningPort } from "@svc/bot-kernel";
import {
  databasePlanResolver, databaseReportSink, TypeOrmBotMemberDirectory, TypeOrmBotPaymentLedger, TypeOrmBotSettingsStore, TypeOrmBotStatsStore, TypeOrmBotSupportDesk,
} from "@svc/persistence";
import type { DataSource } from "typeorm";
import { screeningDeps, screeningPort } from "./screening.js";
import { openStorage, type StorageSettings } from "./storage.js";

export interface BotSettings extends StorageSettings {
  /** The deployment's bootstrap key: `/connect` accepts it as pro while the database has never heard of it. */
  readonly SVC_BOOTSTRAP_KEY?: string | undefined;
}

export interface BotOverrides {
  /** Another screening engine (tests: fixed verdicts); by default the API's own composition on this database. */
  readonly screening?: ScreeningPort;
  readonly clock?: Clock;
  /** An open DataSource to use instead of the configured one (tests). The caller closes it. */
  readonly dataSource?: DataSource;
  readonly plans?: PlanResolver;
}

/** What every chat bot runs on: its database and the kernel's stores on it. */
export interface BotRuntime {
  readonly dataSource: DataSource;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** The kernel's stores: settings, stats, members, support tickets by platform; reports and `/connect` in the API's stores. */
  readonly stores: KernelStores;
  /** Stars and other in-chat payments (Telegram). */
  readonly ledger: PaymentLedger;
  /** Closes the DataSource if this runtime opened it. */
  close(): Promise<void>;
}

/**
 * The chat bots' composition root: one database (PostgreSQL with DATABASE_URL — the API's, to
 * share keys, reports and plans — else embedded PGlite under SVC_DATA_DIR), screening through the
 * API's composition on it, and every kernel store as a TypeORM adapter on it.
 */
export async function openBotRuntime(config: BotSettings, platform: string, o: BotOverrides = {}): Promise<BotRuntime> {
  const dataSource = o.dataSource ?? (await openStorage(config));
  const clock = o.clock ?? systemClock;
  const ids = randomIds(clock);
  const stores: KernelStores = {
    clock,
    screening: o.screening ?? screeningPort(screeningDeps(dataSource, { clock, ids })),
    settings: new TypeOrmBotSettingsStore(dataSource, platform),
    stats: new TypeOrmBotStatsStore(dataSource, platform),
    members: new TypeOrmBotMemberDirectory(dataSource, platform),
    reports: databaseReportSink(dataSource),
    support: new TypeOrmBotSupportDesk(dataSource),
    plans: o.plans ?? databasePlanResolver(dataSource, config.SVC_BOOTSTRAP_KEY),
  };
  const owns = o.dataSource === undefined;
  return {
    dataSource, clock, ids, stores,
    ledger: new TypeOrmBotPaymentLedger(dataSource),
    close: async () => {
      if (owns && dataSource.isInitialized) await dataSource.destroy();
    },
  };
}
