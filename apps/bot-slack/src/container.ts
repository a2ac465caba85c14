import { WebClient, type WebClientOptions } from "@slack/web-api";
import { systemClock, type Clock, type ScreeningPort } from "@svc/bot-kernel";
import {
  databasePlanResolver,
  databaseReportSink,
  databaseScreening,
  openBotDataSource,
  TypeOrmBotMemberDirectory,
  TypeOrmBotSeenEvents,
  TypeOrmBotSettingsStore,
  TypeOrmBotStatsStore,
  TypeOrmBotSupportDesk,
  TypeOrmSlackInstallations,
} from "@svc/persistence";
import { Container } from "inversify";
import type { DataSource } from "typeorm";
import { createSlackApp, PLATFORM, type SlackApp } from "./bot.js";
import type { SlackConfig } from "./config.js";
import { createSlackHttp, type SlackHttp } from "./http.js";
import { Installations } from "./installations.js";
import { OAuthFlow } from "./oauth.js";
import { TokenCipher } from "./token-cipher.js";

/**
 * The composition root: every store is a TypeORM adapter on one DataSource (PostgreSQL when
 * DATABASE_URL is set, else embedded PGlite under SVC_DATA_DIR/pgdata). Reports go into the API's
 * report store and `/svc-connect` reads the API's keys, as for the other bots.
 */
export const TOKENS = {
  config: Symbol("config"),
  dataSource: Symbol("dataSource"),
  clock: Symbol("clock"),
  client: Symbol("client"),
  installations: Symbol("installations"),
  app: Symbol("app"),
  http: Symbol("http"),
} as const;

export interface ContainerOverrides {
  /** Another screening engine (tests: fixed verdicts); by default the API's own composition on this database. */
  readonly screening?: ScreeningPort;
  readonly clock?: Clock;
  /** An open DataSource to use instead of the configured one (tests). The caller closes it. */
  readonly dataSource?: DataSource;
  /** Web API retry policy (tests retry at once; production backs off). */
  readonly retryConfig?: WebClientOptions["retryConfig"];
  readonly onError?: (e: unknown) => void;
  readonly ackTimeoutMs?: number;
}

/** Event ids in the bots' shared `bot_seen_events`; ids older than an hour are pruned now and then (Slack retries within minutes). */
function receipts(seen: TypeOrmBotSeenEvents, clock: Clock): (eventId: string) => Promise<boolean> {
  let n = 0;
  return async (eventId) => {
    const now = clock.now();
    const first = await seen.firstSight(eventId, now);
    if (++n % 500 === 0) await seen.prune(new Date(now.getTime() - 3_600_000));
    return first;
  };
}

export interface SlackRuntime {
  readonly container: Container;
  readonly app: SlackApp;
  readonly http: SlackHttp;
  readonly dataSource: DataSource;
  close(): Promise<void>;
}

export async function buildContainer(config: SlackConfig, overrides: ContainerOverrides): Promise<SlackRuntime> {
  const dataSource = overrides.dataSource ?? (await openBotDataSource(config));
  const c = new Container({ defaultScope: "Singleton" });
  c.bind<SlackConfig>(TOKENS.config).toConstantValue(config);
  c.bind<DataSource>(TOKENS.dataSource).toConstantValue(dataSource);
  c.bind<Clock>(TOKENS.clock).toConstantValue(overrides.clock ?? systemClock);
  c.bind<WebClient>(TOKENS.client).toResolvedValue(
    (cfg: SlackConfig) =>
      new WebClient(undefined, {
        slackApiUrl: cfg.SLACK_API_URL,
        // Requests are answered within Slack's 3 s: a failing call gives up quickly (a 429 waits its Retry-After).
        retryConfig: overrides.retryConfig ?? { retries: 2, factor: 2, minTimeout: 250, maxTimeout: 2000 },
        timeout: 5000,
      }),
    [TOKENS.config],
  );
  c.bind<TypeOrmSlackInstallations>(TypeOrmSlackInstallations).toResolvedValue((ds: DataSource) => new TypeOrmSlackInstallations(ds), [TOKENS.dataSource]);
  c.bind<Installations>(TOKENS.installations).toResolvedValue(
    (cfg: SlackConfig, store: TypeOrmSlackInstallations, clock: Clock) => new Installations(store, new TokenCipher(cfg.SLACK_TOKEN_KEY), clock),
    [TOKENS.config, TypeOrmSlackInstallations, TOKENS.clock],
  );
  c.bind<SlackApp>(TOKENS.app).toResolvedValue(
    (cfg: SlackConfig, ds: DataSource, clock: Clock, client: WebClient, installations: Installations) =>
      createSlackApp({
        client,
        installations,
        clock,
        screening: overrides.screening ?? databaseScreening(ds, clock),
        settings: new TypeOrmBotSettingsStore(ds, PLATFORM),
        stats: new TypeOrmBotStatsStore(ds, PLATFORM),
        members: new TypeOrmBotMemberDirectory(ds, PLATFORM),
        reports: databaseReportSink(ds),
        support: new TypeOrmBotSupportDesk(ds),
        plans: databasePlanResolver(ds, cfg.SVC_BOOTSTRAP_KEY),
        ...(overrides.onError ? { onError: overrides.onError } : {}),
      }),
    [TOKENS.config, TOKENS.dataSource, TOKENS.clock, TOKENS.client, TOKENS.installations],
  );
  c.bind<SlackHttp>(TOKENS.http).toResolvedValue(
    (cfg: SlackConfig, ds: DataSource, clock: Clock, client: WebClient, installations: Installations, store: TypeOrmSlackInstallations, app: SlackApp) =>
      createSlackHttp({
        bolt: app.bolt,
        signingSecret: cfg.SLACK_SIGNING_SECRET,
        clock,
        firstReceipt: receipts(new TypeOrmBotSeenEvents(ds, PLATFORM), clock),
        oauth: new OAuthFlow({
          client,
          installations,
          states: store,
          clock,
          clientId: cfg.SLACK_CLIENT_ID,
          clientSecret: cfg.SLACK_CLIENT_SECRET,
          authorizeUrl: cfg.SLACK_AUTHORIZE_URL,
          ...(cfg.SLACK_REDIRECT_URL ? { redirectUrl: cfg.SLACK_REDIRECT_URL } : {}),
        }),
        isInstalled: async (teamId) => (await installations.find(teamId)) !== null,
        // The install route lives beside the OAuth redirect, on the bot's public address.
        ...(cfg.SLACK_REDIRECT_URL ? { installUrl: `${new URL(cfg.SLACK_REDIRECT_URL).origin}/slack/install` } : {}),
        ...(overrides.onError ? { onError: overrides.onError } : {}),
        ...(overrides.ackTimeoutMs !== undefined ? { ackTimeoutMs: overrides.ackTimeoutMs } : {}),
      }),
    [TOKENS.config, TOKENS.dataSource, TOKENS.clock, TOKENS.client, TOKENS.installations, TypeOrmSlackInstallations, TOKENS.app],
  );
  const ownsDataSource = overrides.dataSource === undefined;
  return {
    container: c,
    app: c.get<SlackApp>(TOKENS.app),
    http: c.get<SlackHttp>(TOKENS.http),
    dataSource,
    close: async () => {
      // Counters and last-seen times waiting in memory are written before the database closes.
      await c.get<SlackApp>(TOKENS.app).kernel.close();
      if (ownsDataSource && dataSource.isInitialized) await dataSource.destroy();
    },
  };
}
