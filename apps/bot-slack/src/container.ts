import { WebClient, type WebClientOptions } from "@slack/web-api";
import type { Clock, ScreeningPort } from "@svc/bot-kernel";
import { TypeOrmBotSeenEvents, TypeOrmSlackInstallations } from "@svc/persistence";
import { openBotRuntime } from "@svc/runtime";
import type { DataSource } from "typeorm";
import { createSlackApp, PLATFORM, type SlackApp } from "./bot.js";
import type { SlackConfig } from "./config.js";
import { createSlackHttp, type SlackHttp } from "./http.js";
import { Installations } from "./installations.js";
import { OAuthFlow } from "./oauth.js";
import { TokenCipher } from "./token-cipher.js";

export interface ContainerOverrides {
  /** Another screening engine (tests: fixed verdicts); by default the API's own composition on this database. */
  readonly screening?: ScreeningPort;
  readonly clock?: Clock;
  /** An open DataSource to use instead of the configured one (tests). The caller closes it. */
  readonly dataSource?: DataSource;
  /** Web API retry policy (tests retry at once; production backs off). */
  readonly retryConfig?: WebClientOptions["retryConfig"];
  readonly onError?: (e: unknown) => void;
  readonly onWarning?: (message: string) => void;
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
  readonly app: SlackApp;
  readonly http: SlackHttp;
  readonly dataSource: DataSource;
  close(): Promise<void>;
}

/**
 * The Slack bot on @svc/runtime's bot composition: every store a TypeORM adapter on one database
 * (PostgreSQL when DATABASE_URL is set, else embedded PGlite under SVC_DATA_DIR/pgdata). Reports
 * go into the API's report store and `/svc-connect` reads the API's keys, as for the other bots.
 */
export async function buildContainer(config: SlackConfig, overrides: ContainerOverrides): Promise<SlackRuntime> {
  const storage = await openBotRuntime(config, PLATFORM, overrides);
  const { dataSource: ds, clock } = storage;
  const client = new WebClient(undefined, {
    slackApiUrl: config.SLACK_API_URL,
    // Requests are answered within Slack's 3 s: a failing call gives up quickly (a 429 waits its Retry-After).
    retryConfig: overrides.retryConfig ?? { retries: 2, factor: 2, minTimeout: 250, maxTimeout: 2000 },
    timeout: 5000,
  });
  const store = new TypeOrmSlackInstallations(ds);
  const installations = new Installations(store, new TokenCipher(config.SLACK_TOKEN_KEY), clock);
  const app = createSlackApp({
    ...storage.stores,
    client,
    installations,
    ...(overrides.onError ? { onError: overrides.onError } : {}),
    ...(overrides.onWarning ? { onWarning: overrides.onWarning } : {}),
  });
  const http = createSlackHttp({
    bolt: app.bolt,
    signingSecret: config.SLACK_SIGNING_SECRET,
    clock,
    firstReceipt: receipts(new TypeOrmBotSeenEvents(ds, PLATFORM), clock),
    oauth: new OAuthFlow({
      client,
      installations,
      states: store,
      clock,
      clientId: config.SLACK_CLIENT_ID,
      clientSecret: config.SLACK_CLIENT_SECRET,
      authorizeUrl: config.SLACK_AUTHORIZE_URL,
      ...(config.SLACK_REDIRECT_URL ? { redirectUrl: config.SLACK_REDIRECT_URL } : {}),
    }),
    isInstalled: async (teamId) => (await installations.find(teamId)) !== null,
    // The install route lives beside the OAuth redirect, on the bot's public address.
    ...(config.SLACK_REDIRECT_URL ? { installUrl: `${new URL(config.SLACK_REDIRECT_URL).origin}/slack/install` } : {}),
    ...(overrides.onError ? { onError: overrides.onError } : {}),
    ...(overrides.ackTimeoutMs !== undefined ? { ackTimeoutMs: overrides.ackTimeoutMs } : {}),
  });
  return { app, http, dataSource: ds, close: async () => {
    // Counters and last-seen times waiting in memory are written before the database closes.
    await app.kernel.close();
    await storage.close();
  } };
}
