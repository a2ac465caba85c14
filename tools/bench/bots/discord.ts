// Messages/s through the Discord adapter: gateway frame → discord.js → kernel (database-backed
// stores) → REST actions, with the real discord.js client against the fake Discord on 127.0.0.1.
//   npx tsx tools/bench/bots/discord.ts [messages]                      (embedded PGlite)
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx tools/bench/bots/discord.ts   (a scratch PostgreSQL database)
// Traffic: 85% chatter, 12% legitimate links, 3% scams (deleted, with a notice: REST calls).
import { cpus } from "node:os";
import { InMemoryMemberDirectory, InMemoryPlanResolver, InMemoryReportSink, InMemorySettingsStore, InMemoryStatsStore, InMemorySupportDesk, systemClock, type ScreeningPort, type StatsStore } from "@svc/bot-kernel";
import { createScreener } from "@svc/core";
import { apiKeyFromSecret } from "@svc/server-ports";
import { openDataSource, scratchDatabase } from "@svc/persistence";
import { parseConfig } from "../../../apps/bot-discord/src/config.js";
import { createDiscordApp, type DiscordApp } from "../../../apps/bot-discord/src/bot.js";
import { buildContainer } from "../../../apps/bot-discord/src/container.js";
import { answerTo, BOT, buildWorld, GUILD_ID, MEMBER, ADMIN, post, slash, TOKEN } from "../../../apps/bot-discord/src/testing/discord-world.js";
import { FakeDiscord } from "../../../apps/bot-discord/src/testing/fake-discord.js";

const total = Number(process.argv[2] ?? 5000);
const SECRET = "b".repeat(40);
const chatter = ["gm everyone ☀️", "what time is the AMA tomorrow?", "thanks for the help, it works now 🙏", "the devs said v2 ships next week", "can someone pin the rules again please", "price action is wild today, stay safe"];
const legit = (i: number): string => [`release notes: https://github.com/org/project/releases/tag/v1.${i % 500}`, `docs https://docs.python.org/3/library/asyncio-task.html#${i % 300}`, `see https://medium.com/@team/update-${i % 400}`][i % 3] as string;
const scams = ["🚀 AIRDROP LIVE: claim at https://metamask-io.claim-airdrop.xyz before it ends!!!", "[official support](https://paypa1.com/login) verify your account now", "wallet frozen? sync it at walletconnect-sync.top/validate"];
let withScams = true;
const traffic = (i: number): string => (i % 100 < 85 ? (chatter[i % chatter.length] as string) : i % 100 < 97 || !withScams ? legit(i) : (scams[i % scams.length] as string));

const screener = createScreener();
const screening: ScreeningPort = { screen: async (v) => { const r = await screener.screen(v); return r.ok ? r.verdict : { error: r.error }; } };

const settle = async (app: DiscordApp, stats: StatsStore, target: number): Promise<void> => {
  while ((await stats.get(GUILD_ID)).messages_scanned < target || app.kernel.queueDepth > 0) await new Promise((r) => setTimeout(r, 20));
};

/** Sends `n` messages through the gateway and waits until every one is scanned and acted on. */
async function run(fake: FakeDiscord, app: DiscordApp, stats: StatsStore, n: number, offset: number): Promise<number> {
  const start0 = (await stats.get(GUILD_ID)).messages_scanned;
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) post(fake, MEMBER, traffic(offset + i));
  await settle(app, stats, start0 + n);
  return n / (Number(process.hrtime.bigint() - t0) / 1e9);
}

async function bench(label: string, fake: FakeDiscord, app: DiscordApp, stats: StatsStore): Promise<void> {
  if (!app.client.isReady()) await app.start();
  await answerTo(fake, slash(fake, ADMIN, "connect", [{ name: "api_key", type: 3, value: apiKeyFromSecret(SECRET) }]));
  await answerTo(fake, slash(fake, ADMIN, "monitor"));
  await answerTo(fake, slash(fake, ADMIN, "policy", [{ name: "delete", type: 1 }]));
  await run(fake, app, stats, Math.min(1000, total), 0); // warm-up: JIT, verdict cache, prepared statements
  const before = fake.callsTo("DELETE", /^\/channels\/\d+\/messages\/\d+$/u).length;
  const perSec = await run(fake, app, stats, total, 1000);
  const deletes = fake.callsTo("DELETE", /^\/channels\/\d+\/messages\/\d+$/u).length - before;
  console.log(`${label.padEnd(40)} ${Math.round(perSec).toLocaleString("en-US").padStart(7)} msg/s  (${total} messages, ${deletes} scams deleted)`);
}

console.log(`node ${process.version}, ${cpus()[0]?.model ?? "cpu"}, discord.js client ↔ fake Discord on 127.0.0.1, monitoring on, delete policy`);

{
  // The adapter's own ceiling: the same app on the kernel's in-memory stores.
  const fake = await FakeDiscord.start(BOT);
  buildWorld(fake);
  const stats = new InMemoryStatsStore();
  const app = createDiscordApp({
    token: TOKEN, applicationId: BOT.id, apiRoot: fake.apiRoot, clock: systemClock, screening,
    settings: new InMemorySettingsStore(), stats, members: new InMemoryMemberDirectory(), reports: new InMemoryReportSink(),
    support: new InMemorySupportDesk(), plans: new InMemoryPlanResolver().add(apiKeyFromSecret(SECRET), "pro"),
  });
  // Every scam costs two REST calls (delete + notice), and discord.js keeps to Discord's global
  // limit of 50 requests/s: with 3% scams that limit, not scanning, sets the pace.
  await bench("in-memory stores (adapter ceiling)", fake, app, stats);
  withScams = false;
  await bench("same, no scams (scanning only, no REST)", fake, app, stats);
  withScams = true;
  await app.stop();
  await fake.close();
}

{
  const pgAdmin = process.env.TEST_DATABASE_URL;
  const pg = pgAdmin ? await scratchDatabase(pgAdmin, "svc_bench") : null;
  const ds = await openDataSource(pg ? { url: pg.url } : { dataDir: "memory://" });
  const fake = await FakeDiscord.start(BOT);
  buildWorld(fake);
  const config = parseConfig({ DISCORD_TOKEN: TOKEN, DISCORD_API_ROOT: fake.apiRoot, SVC_BOOTSTRAP_KEY: SECRET, SVC_DATA_DIR: "memory://" });
  const rt = await buildContainer(config, { screening, dataSource: ds, onError: (e) => console.error(e) });
  // The kernel's counters (written behind, in batches): what waits in memory counts too.
  await bench(`database stores (${pg ? "postgresql" : "pglite"})`, fake, rt.app, rt.app.kernel.buffers.stats);
  await rt.close();
  await ds.destroy();
  await pg?.drop();
  await fake.close();
}
