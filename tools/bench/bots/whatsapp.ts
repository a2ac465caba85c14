// WhatsApp webhook throughput: events/s through the real HTTP handler on 127.0.0.1, signature
// checks on, real stores (embedded PGlite, or PostgreSQL with TEST_DATABASE_URL), the real
// embedded screening engine, replies to a fake Graph API on 127.0.0.1.
//   npx tsx tools/bench/bots/whatsapp.ts [seconds] [concurrency]
// Each delivery is one signed group message with a new id (so nothing is dropped as a
// duplicate); traffic is the kernel benchmark's mix: mostly chatter, some links, a few scams.
import { cpus } from "node:os";
import { createScreener } from "@svc/core";
import { apiKeyFromSecret } from "@svc/server-ports";
import type { ScreeningPort } from "@svc/bot-kernel";
import { BOOTSTRAP_SECRET, ENGINES, messagesDelivery, sign, startHarness } from "../../../apps/bot-whatsapp/src/test-harness.js";

const seconds = Number(process.argv[2] ?? 5);
const concurrency = Number(process.argv[3] ?? 8);
const engine = process.env.TEST_DATABASE_URL ? ENGINES[1] : ENGINES[0];
const GROUP_ID = "120363000000000042";

const chatter = [
  "gm everyone ☀️",
  "what time is the AMA tomorrow?",
  "lol that's hilarious 😂 what did he say next?",
  "anyone else having trouble with the testnet faucet today",
  "thanks for the help, it works now 🙏",
  "the devs said v2 ships next week, fingers crossed",
];
const links = (i: number): string => [`release notes: https://github.com/org/project/releases/tag/v1.${i % 500}`, `docs: https://docs.python.org/3/library/asyncio-task.html#${i % 300}`][i % 2] as string;
const scams = ["🚀 AIRDROP LIVE: claim at https://metamask-io.claim-airdrop.xyz before it ends!!!", "[official support](https://paypa1.com/login) verify your account now"];
const textFor = (i: number): string => (i % 100 < 85 ? (chatter[i % chatter.length] as string) : i % 100 < 97 ? links(i) : (scams[i % scams.length] as string));

const screener = createScreener();
const real: ScreeningPort = { screen: async (v) => { const r = await screener.screen(v); return r.ok ? r.verdict : { error: r.error }; } };

const h = await startHarness({ engine: engine ?? "pglite", env: { LOG_LEVEL: "warn" }, screening: real });

let seq = 0;
const deliver = async (from: string, body: string): Promise<number> => {
  const payload = JSON.stringify(messagesDelivery([{ id: `wamid.B${++seq}`, from, name: "Bench", groupId: GROUP_ID, body }]));
  const r = await fetch(h.webhookUrl, { method: "POST", body: payload, headers: { "content-type": "application/json", "x-hub-signature-256": sign(payload) } });
  await r.arrayBuffer();
  return r.status;
};

// Connect the group (Pro via the bootstrap key) so every message is screened.
await deliver("14155550100", `!svc connect ${apiKeyFromSecret(BOOTSTRAP_SECRET)}`);
for (let i = 0; i < 300; i++) await deliver(`1415555${String(1000 + (i % 50))}`, textFor(i));

let done = 0;
let bad = 0;
const start = process.hrtime.bigint();
const until = Date.now() + seconds * 1000;
await Promise.all(
  Array.from({ length: concurrency }, async (_, w) => {
    while (Date.now() < until) {
      const status = await deliver(`1415556${String(1000 + ((done + w) % 200))}`, textFor(done + w));
      if (status !== 200) bad++;
      done++;
    }
  }),
);
const elapsed = Number(process.hrtime.bigint() - start) / 1e9;
const warnings = h.graph.sent().filter((s) => /risk/iu.test(s.text)).length;
console.log(`node ${process.version}, ${cpus()[0]?.model ?? "cpu"}, ${engine}, ${seconds}s, ${concurrency} concurrent senders`);
console.log(`WhatsApp webhook (signed POST → verify → parse → dedupe → kernel → Graph reply)  ${Math.round(done / elapsed).toLocaleString("en-US")} events/s`);
console.log(`deliveries: ${done}, non-200: ${bad}, warnings sent: ${warnings}`);
await h.close();
