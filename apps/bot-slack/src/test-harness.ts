/**
 * The Slack bot end to end, offline: the real composition root (TypeORM stores on PGlite, or on
 * PostgreSQL with TEST_DATABASE_URL), the real signed HTTP front on 127.0.0.1, and a fake Slack
 * Web API on 127.0.0.1 (fake-slack-api.ts). Requests are signed like Slack signs them.
 * Written against platform-neutral steps (as admin / as member, command, message) so the
 * conversation can move to the shared bot contract suite.
 */
import { createHmac } from "node:crypto";
import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { InMemoryScreening, ManualClock } from "@svc/bot-kernel";
import { apiKeyFromSecret } from "@svc/server-ports";
import { openDataSource, scratchDatabase, type ScratchDatabase } from "@svc/persistence";
import type { DataSource } from "typeorm";
import { parseConfig, type SlackConfig } from "./config.js";
import { buildContainer, type SlackRuntime } from "./container.js";
import { startFakeSlackApi, type FakeSlackApi } from "./fake-slack-api.js";

export const SIGNING_SECRET = "8f742231b10e8888abcd99fe00c85a5d";
export const TEAM = "T0TEAM0001";
export const CHANNEL = "C0GENERAL1";
export const BOT_USER = "U0BOTUSER1";
export const BOT_TOKEN = "xoxb-1111-2222-testtokenvalue";
export const ADMIN = { id: "U0ADMIN001", name: "alice", realName: "Alice Walker", isAdmin: true };
export const MEMBER = { id: "U0MEMBER01", name: "mallory", realName: "Mallory", isAdmin: false };
export const BOOTSTRAP_SECRET = "s".repeat(40);
export const PRO_KEY = apiKeyFromSecret(BOOTSTRAP_SECRET);

export type Engine = "pglite" | "postgres";
export const ENGINES: readonly Engine[] = (["pglite", "postgres"] as const).filter((e) => e === "pglite" || process.env.TEST_DATABASE_URL);

export function sign(body: string, ts: number, secret = SIGNING_SECRET): string {
  return `v0=${createHmac("sha256", secret).update(`v0:${ts}:${body}`).digest("hex")}`;
}

export interface Harness {
  readonly rt: SlackRuntime;
  readonly api: FakeSlackApi;
  readonly clock: ManualClock;
  readonly screening: InMemoryScreening;
  readonly base: string;
  readonly errors: unknown[];
  readonly config: SlackConfig;
  db<T>(sql: string, params?: unknown[]): Promise<T[]>;
  /** While set, every screening waits for this promise (a slow engine). */
  gate: Promise<void> | null;
  /** POSTs a body to /slack/events, signed unless headers say otherwise; waits until handling is over unless `settle` is false. */
  post(body: string, contentType: string, headers?: Record<string, string>, settle?: boolean): Promise<Response>;
  event(event: Record<string, unknown>, opts?: { eventId?: string; retryNum?: number; team?: string }): Promise<Response>;
  /** Runs a slash command; answers its HTTP answer as Slack reads it. */
  commandAnswer(user: { id: string; name: string }, command: string, text: string, channel?: string, team?: string): Promise<CommandAnswer>;
  /** Runs a slash command; answers the ephemeral reply's text ("" when there was none). */
  command(user: { id: string; name: string }, command: string, text: string, channel?: string, team?: string): Promise<string>;
  message(user: { id: string }, text: string, channel?: string, extra?: Record<string, unknown>): Promise<Response>;
  install(): Promise<void>;
  close(): Promise<void>;
}

let seq = 0;

export interface HarnessOptions {
  readonly ackTimeoutMs?: number;
  /** Fixed verdicts to screen with instead of the harness's own. */
  readonly screening?: InMemoryScreening;
  /** A migrated database to use (the caller empties and closes it) instead of a new one. */
  readonly dataSource?: DataSource;
}

/** A slash command's HTTP answer: Bolt's ack body (ephemeral text and Block Kit), null when empty. */
export type CommandAnswer = { readonly response_type?: string; readonly text?: string; readonly blocks?: readonly Record<string, unknown>[] } | null;

export async function createHarness(engine: Engine = "pglite", options: HarnessOptions = {}): Promise<Harness> {
  const api = await startFakeSlackApi();
  const clock = new ManualClock("2026-03-02T09:00:00.000Z");
  const screening = options.screening ?? new InMemoryScreening()
    .set("paypa1.com", "critical", "Looks like paypal.com (one character replaced: l → 1)")
    .set("claim-airdrop.top", "high", "Suspicious top-level domain and airdrop keyword")
    .set("docs.python.org", "low");
  const config = parseConfig({
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_CLIENT_ID: "1111.2222",
    SLACK_CLIENT_SECRET: "c".repeat(32),
    SLACK_TOKEN_KEY: "k".repeat(40),
    SLACK_API_URL: api.url,
    SLACK_REDIRECT_URL: "https://svc.example/slack/oauth_redirect",
    SVC_BOOTSTRAP_KEY: BOOTSTRAP_SECRET,
    SVC_DATA_DIR: "memory://",
  });
  let scratch: ScratchDatabase | null = null;
  let ds: DataSource;
  if (options.dataSource) {
    ds = options.dataSource;
  } else if (engine === "postgres") {
    scratch = await scratchDatabase(process.env.TEST_DATABASE_URL as string, "svc_slack");
    ds = await openDataSource({ url: scratch.url });
  } else {
    ds = await openDataSource({ dataDir: "memory://" });
  }
  const errors: unknown[] = [];
  const gated = {
    screen: async (value: string) => {
      if (h.gate) await h.gate;
      return screening.screen(value);
    },
  };
  const rt = await buildContainer(config, { screening: gated, clock, ...(options.ackTimeoutMs !== undefined ? { ackTimeoutMs: options.ackTimeoutMs } : {}), dataSource: ds, retryConfig: { retries: 2, minTimeout: 0, maxTimeout: 0 }, onError: (e) => errors.push(e) });
  const server: ServerType = await new Promise((r) => {
    const s = serve({ fetch: rt.http.app.fetch, port: 0, hostname: "127.0.0.1" }, () => r(s));
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  api.tokens.add(BOT_TOKEN);
  api.joined.add(CHANNEL);
  api.publicChannels.add(CHANNEL);
  for (const u of [ADMIN, MEMBER]) api.users.set(u.id, u);

  const post = async (body: string, contentType: string, headers: Record<string, string> = {}, settle = true): Promise<Response> => {
    const ts = Math.floor(clock.now().getTime() / 1000);
    const res = await fetch(`${base}/slack/events`, {
      method: "POST",
      headers: { "content-type": contentType, "x-slack-request-timestamp": String(ts), "x-slack-signature": sign(body, ts), ...headers },
      body,
    });
    if (settle) await rt.http.idle();
    return res;
  };

  const h: Harness = {
    rt,
    api,
    clock,
    screening,
    base,
    errors,
    config,
    gate: null,
    db: (sql, params = []) => ds.query(sql, params),
    post,
    event(event, opts = {}) {
      const team = opts.team ?? TEAM;
      const body = JSON.stringify({ token: "legacy", team_id: team, api_app_id: "A0APP", type: "event_callback", event_id: opts.eventId ?? `Ev${++seq}`, event_time: Math.floor(clock.now().getTime() / 1000), event });
      return post(body, "application/json", opts.retryNum !== undefined ? { "x-slack-retry-num": String(opts.retryNum), "x-slack-retry-reason": "http_timeout" } : {});
    },
    async commandAnswer(user, command, text, channel = CHANNEL, team = TEAM) {
      const form = new URLSearchParams({
        token: "legacy", team_id: team, team_domain: "example", channel_id: channel, channel_name: "general", user_id: user.id, user_name: user.name,
        command, text, api_app_id: "A0APP", response_url: "https://hooks.slack.com/commands/T0TEAM0001/1/x", trigger_id: `${++seq}.1.x`,
      });
      // Each command is a new request from Slack: a new timestamp, so a new signature.
      clock.advance(1000);
      const res = await post(form.toString(), "application/x-www-form-urlencoded");
      if (res.status !== 200) throw new Error(`command answered ${res.status}: ${await res.text()}`);
      const raw = await res.text();
      return raw ? (JSON.parse(raw) as CommandAnswer) : null;
    },
    async command(user, command, text, channel = CHANNEL, team = TEAM) {
      return (await h.commandAnswer(user, command, text, channel, team))?.text ?? "";
    },
    message(user, text, channel = CHANNEL, extra = {}) {
      clock.advance(1000);
      return h.event({ type: "message", channel, user: user.id, text, ts: `${Math.floor(clock.now().getTime() / 1000)}.000${++seq}`, channel_type: "channel", ...extra });
    },
    async install() {
      await rt.app.installations.save({ teamId: TEAM, enterpriseId: null, botToken: BOT_TOKEN, botUserId: BOT_USER, botId: "B0BOT", installedBy: ADMIN.id, scopes: "commands,chat:write" });
    },
    async close() {
      await new Promise<void>((r) => server.close(() => r()));
      await rt.http.idle();
      await api.close();
      await rt.close();
      if (!options.dataSource) await ds.destroy();
      if (scratch) await scratch.drop();
    },
  };
  return h;
}
