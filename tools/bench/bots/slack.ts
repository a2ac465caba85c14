// Slack events/s through the real HTTP handler: signed Events API deliveries (v0 HMAC checked,
// replay cache, event-id receipt in the database) → Bolt → kernel (real embedded screening) →
// Block Kit warnings posted to a fake Web API on 127.0.0.1. Storage: in-memory PGlite.
//   npx tsx tools/bench/bots/slack.ts [seconds] [connections]
// The bot, the fake Web API and the load generator (autocannon) share this one process.
import { createHmac } from "node:crypto";
import type { AddressInfo } from "node:net";
import { cpus } from "node:os";
import { serve } from "@hono/node-server";
import autocannon from "autocannon";
import type { ScreeningPort } from "@svc/bot-kernel";
import { createScreener } from "@svc/core";
import { apiKeyFromSecret } from "@svc/server-ports";
import { parseConfig } from "../../../apps/bot-slack/src/config.js";
import { buildContainer } from "../../../apps/bot-slack/src/container.js";
import { startFakeSlackApi } from "../../../apps/bot-slack/src/fake-slack-api.js";

const seconds = Number(process.argv[2] ?? 10);
const connections = Number(process.argv[3] ?? 10);
const SECRET = "8f742231b10e8888abcd99fe00c85a5d";
const TEAM = "T0BENCH001";
const CHANNEL = "C0BENCH001";
const TOKEN = "xoxb-1-2-bench";

const screener = createScreener();
const screening: ScreeningPort = { screen: async (v) => { const r = await screener.screen(v); return r.ok ? r.verdict : { error: r.error }; } };
const api = await startFakeSlackApi({ record: false });
api.tokens.add(TOKEN);
api.joined.add(CHANNEL);
api.users.set("U0ADMIN", { id: "U0ADMIN", name: "admin", realName: "Admin", isAdmin: true });
for (let i = 0; i < 50; i++) api.users.set(`U0M${i}`, { id: `U0M${i}`, name: `m${i}`, realName: `Member ${i}` });
const bootstrap = "b".repeat(40);
const config = parseConfig({
  SLACK_SIGNING_SECRET: SECRET, SLACK_CLIENT_ID: "1.2", SLACK_CLIENT_SECRET: "c".repeat(32), SLACK_TOKEN_KEY: "k".repeat(40),
  SLACK_API_URL: api.url, SVC_DATA_DIR: "memory://", SVC_BOOTSTRAP_KEY: bootstrap,
});
const rt = await buildContainer(config, { screening, onError: (e) => console.error(e) });
await rt.app.installations.save({ teamId: TEAM, enterpriseId: null, botToken: TOKEN, botUserId: "U0BOT", botId: "B0BOT", installedBy: "U0ADMIN", scopes: "" });
const server = await new Promise<ReturnType<typeof serve>>((r) => { const s = serve({ fetch: rt.http.app.fetch, port: 0, hostname: "127.0.0.1" }, () => r(s)); });
const port = (server.address() as AddressInfo).port;

let seq = 0;
const signed = (body: string, type: string): { headers: Record<string, string>; body: string } => {
  const ts = Math.floor(Date.now() / 1000);
  return { body, headers: { "content-type": type, "x-slack-request-timestamp": String(ts), "x-slack-signature": `v0=${createHmac("sha256", SECRET).update(`v0:${ts}:${body}`).digest("hex")}` } };
};
const command = async (cmd: string, text: string): Promise<string> => {
  const s = signed(new URLSearchParams({ team_id: TEAM, channel_id: CHANNEL, user_id: "U0ADMIN", user_name: "admin", command: cmd, text, trigger_id: `t${++seq}` }).toString(), "application/x-www-form-urlencoded");
  const r = await fetch(`http://127.0.0.1:${port}/slack/events`, { method: "POST", headers: s.headers, body: s.body });
  return r.text();
};
await command("/svc-connect", apiKeyFromSecret(bootstrap));
await command("/svc-monitor", "");
await command("/svc-policy", "notify");

const chatter = ["gm everyone", "what time is the AMA tomorrow?", "thanks, it works now", "can someone pin the rules again please", "the devs said v2 ships next week"];
const links = (i: number) => [`release notes <https://github.com/org/project/releases/tag/v1.${i % 500}>`, `docs <https://docs.python.org/3/library/asyncio.html#${i % 300}|asyncio docs>`][i % 2] as string;
const scams = ["claim at <https://metamask-io.claim-airdrop.xyz|metamask.io> now", "send 0.1 eth to 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed and get 0.2 back", "verify at <https://paypa1.com/login|paypal.com>"];
const textOf = (i: number): string => (i % 100 < 85 ? (chatter[i % chatter.length] as string) : i % 100 < 97 ? links(i) : (scams[i % scams.length] as string));

const before = await rt.dataSource.query(`SELECT counter, value FROM bot_chat_stats WHERE chat_id = $1`, [`${TEAM}:${CHANNEL}`]);
console.log(`node ${process.version}, ${cpus()[0]?.model ?? "cpu"}; ${seconds}s, ${connections} connections; traffic 85% chatter, 12% links, 3% scams`);
const result = await autocannon({
  url: `http://127.0.0.1:${port}`,
  connections,
  duration: seconds,
  requests: [{
    method: "POST",
    path: "/slack/events",
    setupRequest: (req) => {
      const i = ++seq;
      const body = JSON.stringify({ team_id: TEAM, api_app_id: "A0", type: "event_callback", event_id: `EvB${i}`, event_time: Math.floor(Date.now() / 1000), event: { type: "message", channel: CHANNEL, user: `U0M${i % 50}`, text: textOf(i), ts: `${Math.floor(Date.now() / 1000)}.${String(i).padStart(6, "0")}`, channel_type: "channel" } });
      const s = signed(body, "application/json");
      return { ...req, body: s.body, headers: s.headers };
    },
  }],
});
await rt.http.idle();
const after = (await rt.dataSource.query(`SELECT counter, value FROM bot_chat_stats WHERE chat_id = $1`, [`${TEAM}:${CHANNEL}`])) as { counter: string; value: string }[];
const count = (rows: { counter: string; value: string }[], c: string) => Number(rows.find((r) => r.counter === c)?.value ?? 0);
const non2xx = result.non2xx;
console.log(`events/s ${Math.round(result.requests.average).toLocaleString("en-US")} (p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms), non-2xx ${non2xx}, errors ${result.errors}`);
console.log(`scanned ${count(after, "messages_scanned") - count(before as never, "messages_scanned")}, warnings posted ${count(after, "warnings") - count(before as never, "warnings")}`);
server.close();
await api.close();
await rt.close();
