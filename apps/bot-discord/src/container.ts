import type { Clock, ScreeningPort } from "@svc/bot-kernel";
import { openBotRuntime, type BotRuntime as StorageRuntime } from "@svc/runtime";
import type { DataSource } from "typeorm";
import { createDiscordApp, PLATFORM, type DiscordApp } from "./bot.js";
import type { DiscordConfig } from "./config.js";

export interface ContainerOverrides {
  /** Another screening engine (tests: fixed verdicts); by default the API's own composition on this database. */
  readonly screening?: ScreeningPort;
  readonly clock?: Clock;
  /** An open DataSource to use instead of the configured one (tests). The caller closes it. */
  readonly dataSource?: DataSource;
  readonly onError?: (error: unknown) => void;
}

export interface BotRuntime {
  readonly app: DiscordApp;
  readonly dataSource: DataSource;
  /** The stores the app runs on (@svc/runtime's bot composition). */
  readonly storage: StorageRuntime;
  /** Stops the client and closes the DataSource if this runtime opened it. */
  close(): Promise<void>;
}

/**
 * The Discord bot on @svc/runtime's bot composition: every store a TypeORM adapter on one
 * database (PostgreSQL with DATABASE_URL, else embedded PGlite under SVC_DATA_DIR/pgdata);
 * reports go into the API's report store and /connect reads the API's keys.
 */
export async function buildContainer(config: DiscordConfig, overrides: ContainerOverrides): Promise<BotRuntime> {
  const storage = await openBotRuntime(config, PLATFORM, overrides);
  const app = createDiscordApp({
    ...storage.stores,
    token: config.DISCORD_TOKEN,
    applicationId: config.DISCORD_APPLICATION_ID,
    ...(config.DISCORD_API_ROOT ? { apiRoot: config.DISCORD_API_ROOT } : {}),
    ...(overrides.onError ? { onError: overrides.onError } : {}),
  });
  return {
    app, storage, dataSource: storage.dataSource,
    close: async () => {
      await app.stop();
      // Counters and last-seen times waiting in memory are written before the database closes.
      await app.kernel.close();
      await storage.close();
    },
  };
}
