import type { Clock, ScreeningPort } from "@svc/bot-kernel";
import { openBotRuntime, type BotRuntime as StorageRuntime } from "@svc/runtime";
import type { Transformer } from "grammy";
import type { UserFromGetMe } from "grammy/types";
import type { DataSource } from "typeorm";
import { createTelegramApp, PLATFORM, type TelegramApp } from "./bot.js";
import type { TelegramConfig } from "./config.js";

export interface ContainerOverrides {
  /** Another screening engine (tests: fixed verdicts); by default the API's own composition on this database. */
  readonly screening?: ScreeningPort;
  readonly clock?: Clock;
  /** An open DataSource to use instead of the configured one (tests: an in-memory PGlite). The caller closes it. */
  readonly dataSource?: DataSource;
  /** Innermost Bot API transformer and known identity: tests run the bot without a network. */
  readonly transport?: Transformer;
  readonly botInfo?: UserFromGetMe;
  readonly onError?: (error: unknown) => void;
}

export interface BotRuntime {
  readonly app: TelegramApp;
  readonly dataSource: DataSource;
  /** The stores the app runs on (@svc/runtime's bot composition). */
  readonly storage: StorageRuntime;
  /** Closes the DataSource if this runtime opened it. */
  close(): Promise<void>;
}

/**
 * The Telegram bot on @svc/runtime's bot composition: every store a TypeORM adapter on one
 * database (PostgreSQL with DATABASE_URL, else embedded PGlite under SVC_DATA_DIR/pgdata), and
 * screening the API's own composition on it. Reports go into the API's report store and
 * `/connect` reads the API's keys, so with a shared database the bot and the API agree.
 */
export async function buildContainer(config: TelegramConfig, overrides: ContainerOverrides): Promise<BotRuntime> {
  const storage = await openBotRuntime(config, PLATFORM, overrides);
  const app = createTelegramApp({
    ...storage.stores,
    ledger: storage.ledger,
    token: config.TELEGRAM_BOT_TOKEN,
    ...(config.TELEGRAM_API_ROOT ? { apiRoot: config.TELEGRAM_API_ROOT } : {}),
    ...(overrides.botInfo ? { botInfo: overrides.botInfo } : {}),
    ...(overrides.transport ? { transport: overrides.transport } : {}),
    ...(overrides.onError ? { onError: overrides.onError } : {}),
    prices: { starter: config.TELEGRAM_STARS_STARTER, pro: config.TELEGRAM_STARS_PRO },
  });
  return { app, storage, dataSource: storage.dataSource, close: async () => {
    // Counters and last-seen times waiting in memory are written before the database closes.
    await app.kernel.close();
    await storage.close();
  } };
}
