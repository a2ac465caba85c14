// Monitoring throughput of the bot kernel on one core: messages/s through extract → screen → decide → act.
//   npx tsx tools/bench/bots/main.ts [seconds-per-case]
// The last cases run the kernel on the database-backed stores (settings, counters, members in
// the database, as the bots run): embedded PGlite, and PostgreSQL too when TEST_DATABASE_URL is
// set (a scratch database is created next to it and dropped).
// Traffic is chat-like: mostly plain chatter, some legitimate links (many distinct URLs, so the
// verdict cache misses often), a few scams that repeat (as raids do). Screening is the real
// embedded engine, createScreener() from @svc/core, behind the kernel's ScreeningPort.
import { cpus } from "node:os";
import {
  BotKernel,
  InMemoryMemberDirectory,
  InMemoryPlanResolver,
  InMemoryReportSink,
  InMemorySettingsStore,
  InMemoryStatsStore,
  InMemorySupportDesk,
  systemClock,
  type ChatPort,
  type ScreeningPort,
} from "@svc/bot-kernel";
import { createScreener, extractEntities } from "@svc/core";
import {
  openDataSource,
  scratchDatabase,
  TypeOrmBotMemberDirectory,
  TypeOrmBotSettingsStore,
  TypeOrmBotStatsStore,
  TypeOrmBotSupportDesk,
} from "@svc/persistence";
import type { DataSource } from "typeorm";

const seconds = Number(process.argv[2] ?? 3);
const GROUP = "-100123";

const pick = <T>(a: readonly T[], i: number): T => a[i % a.length] as T;
const chatter = [
  "gm everyone ☀️",
  "what time is the AMA tomorrow?",
  "lol that's hilarious 😂 what did he say next?",
  "I think the roadmap update was pretty solid tbh",
  "anyone else having trouble with the testnet faucet today",
  "thanks for the help, it works now 🙏",
  "when moon",
  "the devs said v2 ships next week, fingers crossed",
  "can someone pin the rules again please",
  "welcome to the new folks! read the pinned message first",
  "price action is wild today, stay safe out there",
  "has anyone tried the new wallet extension? thoughts?",
];
const legit = (i: number): string =>
  pick(
    [
      `release notes: https://github.com/org/project/releases/tag/v1.${i % 500}`,
      `docs are here https://docs.python.org/3/library/asyncio-task.html#${i % 300}`,
      `watch this https://www.youtube.com/watch?v=dQw4w9WgXc${i % 200}`,
      `thread: https://x.com/someproject/status/18${i % 1000}`,
      `explorer link https://etherscan.io/tx/0x${(i * 2654435761).toString(16).padStart(8, "0").repeat(8).slice(0, 64)}`,
      `see https://medium.com/@team/update-${i % 400}`,
    ],
    i,
  );
const scams = [
  "🚀 AIRDROP LIVE: claim at https://metamask-io.claim-airdrop.xyz before it ends!!!",
  "send 0.1 eth to 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed and get 0.2 back",
  "[official support](https://paypa1.com/login) verify your account now",
  "DM support@binance-help.top for account recovery",
  "wallet frozen? sync it at walletconnect-sync.top/validate",
];
const traffic = Array.from({ length: 10_000 }, (_, i) => (i % 100 < 85 ? pick(chatter, i * 7) : i % 100 < 97 ? legit(i) : pick(scams, i)));

/** Records nothing: we measure the kernel and the engine, not a fake network. */
const nullChat: ChatPort = {
  send: async () => {},
  reply: async () => {},
  deleteMessage: async () => true,
  ban: async () => true,
  restrict: async () => true,
  listAdmins: async () => [{ id: "1", name: "Admin" }],
  resolveMember: async () => null,
};

/** The kernel's stores in the database, as the bot apps compose them. */
const databaseStores = (ds: DataSource) => ({
  settings: new TypeOrmBotSettingsStore(ds, "bench"),
  stats: new TypeOrmBotStatsStore(ds, "bench"),
  members: new TypeOrmBotMemberDirectory(ds, "bench"),
  support: new TypeOrmBotSupportDesk(ds),
});

async function kernelWith(screening: ScreeningPort, ttlMs: number, ds?: DataSource): Promise<BotKernel> {
  const stores = ds
    ? databaseStores(ds)
    : { settings: new InMemorySettingsStore(), stats: new InMemoryStatsStore(), members: new InMemoryMemberDirectory(), support: new InMemorySupportDesk() };
  const kernel = new BotKernel({
    platform: "bench",
    dialect: "telegram",
    chat: nullChat,
    screening,
    ...stores,
    reports: new InMemoryReportSink(),
    plans: new InMemoryPlanResolver(),
    clock: systemClock,
    options: { cache: { ttlMs, maxEntries: 5000 } },
  });
  await kernel.onBotMembership(GROUP, { isAdmin: true, canDelete: true, canRestrict: true });
  return kernel;
}

/** Messages each `measure` sent, warm-up included (the database cases check their counters against it). */
let sent = 0;

async function measure(name: string, run: (text: string, i: number) => Promise<unknown> | unknown): Promise<number> {
  sent = 3000;
  for (let k = 0; k < 3000; k++) await run(traffic[k % traffic.length] as string, k);
  let n = 0;
  const start = process.hrtime.bigint();
  const budget = BigInt(Math.round(seconds * 1e9));
  let elapsed = 0n;
  while (elapsed < budget) {
    for (let k = 0; k < 500; k++) await run(traffic[(n + k) % traffic.length] as string, n + k);
    n += 500;
    sent += 500;
    elapsed = process.hrtime.bigint() - start;
  }
  const perSec = n / (Number(elapsed) / 1e9);
  console.log(`${name.padEnd(44)} ${Math.round(perSec).toLocaleString("en-US").padStart(10)} msg/s`);
  return perSec;
}

const screener = createScreener();
const engine: ScreeningPort = {
  screen: async (value) => {
    const r = await screener.screen(value);
    return r.ok ? r.verdict : { error: r.error };
  },
};

console.log(`node ${process.version}, ${cpus()[0]?.model ?? "cpu"}, ${seconds}s per case, one core`);
console.log(`traffic: ${traffic.length} messages, 85% chatter, 12% legitimate links, 3% scams`);
console.log("-- baseline");
await measure("extractEntities alone", (t) => extractEntities(t, { maxEntities: 10 }));
console.log("-- monitoring pipeline (kernel.onMessage, policy delete)");
const cached = await kernelWith(engine, 10 * 60_000);
const sender = { id: "42", name: "Member" };
const full = await measure("extract + screen (10 min cache) + decide + act", (text, i) => cached.onMessage({ ref: { chatId: GROUP, messageId: String(i) }, sender, text }));
const uncached = await kernelWith(engine, 0);
await measure("same, verdict cache disabled", (text, i) => uncached.onMessage({ ref: { chatId: GROUP, messageId: String(i) }, sender, text }));
// Sanity: the engine really judged the traffic (a fast pipeline that flags nothing proves nothing).
const flagged = async (list: readonly string[]): Promise<number> => {
  let n = 0;
  for (const t of list) if ((await cached.dryRun(GROUP, t, sender)).action !== "none") n++;
  return n;
};
console.log(`flagged: ${await flagged(scams)}/${scams.length} scam messages, ${await flagged(chatter)}/${chatter.length} chatter, ${await flagged(traffic.filter((_, i) => i % 100 >= 85 && i % 100 < 97).slice(0, 200))}/200 legitimate links`);
console.log(`verdict cache hit rate: ${((100 * cached.cache.hits) / Math.max(1, cached.cache.hits + cached.cache.misses)).toFixed(1)}%`);
console.log(`target 5,000 msg/s: ${full >= 5000 ? "met" : "NOT met"} (${(full / 5000).toFixed(1)}×)`);

// -- the kernel on the database-backed stores, against the same kernel on in-memory stores, same traffic.
// 50 members take turns speaking, so members are seen again (as in a real group), not one sender.
console.log("-- kernel.onMessage with database stores (monitoring on, policy delete, 50 members speaking)");
const speaker = (i: number) => ({ id: String(1000 + (i % 50)), name: `Member ${i % 50}` });
const viaKernel = (k: BotKernel) => (text: string, i: number) => k.onMessage({ ref: { chatId: GROUP, messageId: String(i) }, sender: speaker(i), text });
const baseline = await measure("kernel.onMessage with in-memory stores", viaKernel(await kernelWith(engine, 10 * 60_000)));
const engines: { name: "pglite" | "postgresql"; open: () => Promise<{ ds: DataSource; drop: () => Promise<void> }> }[] = [
  { name: "pglite", open: async () => ({ ds: await openDataSource({ dataDir: "memory://" }), drop: async () => {} }) },
];
const pgAdmin = process.env.TEST_DATABASE_URL;
if (pgAdmin) {
  engines.push({
    name: "postgresql",
    open: async () => {
      const scratch = await scratchDatabase(pgAdmin, "svc_bench_bots");
      return { ds: await openDataSource({ url: scratch.url }), drop: () => scratch.drop() };
    },
  });
}
for (const e of engines) {
  const { ds, drop } = await e.open();
  const kernel = await kernelWith(engine, 10 * 60_000, ds);
  const rate = await measure(`kernel.onMessage with database stores (${e.name})`, viaKernel(kernel));
  // Shutdown writes what waits; then the database must hold every message's counter (nothing lost to the batching).
  await kernel.close();
  const scanned = (await new TypeOrmBotStatsStore(ds, "bench").get(GROUP)).messages_scanned;
  const members = (await new TypeOrmBotMemberDirectory(ds, "bench").list(GROUP)).length;
  console.log(`  ${e.name}: ${(rate / baseline).toFixed(2)}× the in-memory stores; messages_scanned in the database ${scanned.toLocaleString("en-US")} of ${sent.toLocaleString("en-US")} sent; ${members} members stored`);
  console.log(`  target 5,000 msg/s on ${e.name}: ${rate >= 5000 ? "met" : "NOT met"} (${(rate / 5000).toFixed(1)}×)`);
  await ds.destroy();
  await drop();
}
