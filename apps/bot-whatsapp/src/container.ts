import type { Clock, PlanResolver, ScreeningPort } from "@svc/bot-kernel";
import { TypeOrmBotChatAdmins, TypeOrmBotSeenEvents } from "@svc/persistence";
import { createLogger, openBotRuntime, type Logger } from "@svc/runtime";
import type { Hono } from "hono";
import type { DestinationStream } from "pino";
import type { DataSource } from "typeorm";
import type { WhatsAppAPI } from "whatsapp-api-js";
import { createWhatsAppApp, PLATFORM, type WhatsAppApp } from "./bot.js";
import type { WhatsAppConfig } from "./config.js";
import { createGraphApi } from "./graph-api.js";
import { WhatsAppSender, type Scheduler } from "./outbound.js";
import { createWebhookApp } from "./webhook.js";

export interface RuntimeOverrides {
  /** Another screening engine (tests: fixed verdicts); by default the API's own composition on this database. */
  readonly screening?: ScreeningPort;
  readonly clock?: Clock;
  /** An open DataSource to use instead of the configured one (tests: an in-memory PGlite). The caller closes it. */
  readonly dataSource?: DataSource;
  /** The fetch under whatsapp-api-js (default: the global one, to WHATSAPP_GRAPH_URL). */
  readonly fetch?: typeof fetch;
  readonly plans?: PlanResolver;
  readonly logDestination?: DestinationStream;
  readonly schedule?: Scheduler;
  readonly retryDelaysMs?: readonly number[];
}

export interface WhatsAppRuntime {
  readonly app: WhatsAppApp;
  readonly web: Hono;
  readonly api: WhatsAppAPI;
  readonly sender: WhatsAppSender;
  readonly dataSource: DataSource;
  readonly log: Logger;
  /** Forgets event ids older than the redelivery horizon (a week). */
  prune(): Promise<number>;
  /** Closes the DataSource if this runtime opened it. */
  close(): Promise<void>;
}

/** How long a message id is remembered: Meta stops redelivering long before (about a day). */
export const SEEN_EVENT_TTL_MS = 7 * 86_400_000;

/**
 * The WhatsApp bot on @svc/runtime's bot composition: every store a TypeORM adapter on one
 * database (PostgreSQL with DATABASE_URL, else embedded PGlite); reports go into the API's report
 * store and `!svc connect` reads the API's keys.
 */
export async function buildRuntime(config: WhatsAppConfig, o: RuntimeOverrides): Promise<WhatsAppRuntime> {
  const log = createLogger(config.LOG_LEVEL, { app: "bot-whatsapp", ...(o.logDestination ? { destination: o.logDestination } : {}) });
  const storage = await openBotRuntime(config, PLATFORM, o);
  const { dataSource, clock } = storage;
  const api = createGraphApi({
    token: config.WHATSAPP_ACCESS_TOKEN,
    appSecret: config.WHATSAPP_APP_SECRET,
    verifyToken: config.WHATSAPP_VERIFY_TOKEN,
    version: config.WHATSAPP_API_VERSION,
    baseUrl: config.WHATSAPP_GRAPH_URL,
    ...(o.fetch ? { fetch: o.fetch } : {}),
  });
  const sender = new WhatsAppSender({
    api,
    phoneNumberId: config.WHATSAPP_PHONE_NUMBER_ID,
    log,
    ...(o.schedule ? { schedule: o.schedule } : {}),
    ...(o.retryDelaysMs ? { retryDelaysMs: o.retryDelaysMs } : {}),
  });
  const seen = new TypeOrmBotSeenEvents(dataSource, PLATFORM);
  const app = createWhatsAppApp({
    ...storage.stores,
    phoneNumberId: config.WHATSAPP_PHONE_NUMBER_ID,
    sender,
    admins: new TypeOrmBotChatAdmins(dataSource, PLATFORM),
    seen,
    log,
  });
  const web = createWebhookApp(api, app, { path: config.WHATSAPP_WEBHOOK_PATH, maxBodyBytes: config.WHATSAPP_MAX_BODY_BYTES, log });
  return {
    app,
    web,
    api,
    sender,
    dataSource,
    log,
    prune: () => seen.prune(new Date(clock.now().getTime() - SEEN_EVENT_TTL_MS)),
    close: async () => {
      // Counters and last-seen times waiting in memory are written before the database closes.
      await app.kernel.close();
      await storage.close();
    },
  };
}
