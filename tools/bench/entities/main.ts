// Entity parsing and extraction throughput on one core.
//   npm run bench:entities            (or: npx tsx tools/bench/entities/main.ts [seconds-per-case])
// Prints parses/s per type, and extraction MB/s on chat-like text, beside a baseline measured in
// the same run (the WHATWG URL parser alone, which every URL/IDN parse needs anyway).
import { cpus } from "node:os";
import { extractEntities, parseEntity } from "@svc/core";

const seconds = Number(process.argv[2] ?? 1.5);

function measure(name: string, inputs: readonly string[], fn: (s: string) => unknown): number {
  // Warm up so the JIT has compiled the hot path.
  for (let k = 0; k < 20_000; k++) fn(inputs[k % inputs.length] as string);
  let n = 0;
  const start = process.hrtime.bigint();
  const budget = BigInt(Math.round(seconds * 1e9));
  let elapsed = 0n;
  while (elapsed < budget) {
    for (let k = 0; k < 1000; k++) fn(inputs[(n + k) % inputs.length] as string);
    n += 1000;
    elapsed = process.hrtime.bigint() - start;
  }
  const perSec = n / (Number(elapsed) / 1e9);
  console.log(`${name.padEnd(34)} ${Math.round(perSec).toLocaleString("en-US").padStart(12)} /s`);
  return perSec;
}

const words = ["secure", "login", "account", "wallet", "support", "verify", "app", "my", "online", "shop", "pay", "mail", "cloud", "news"];
const tlds = ["com", "net", "org", "io", "xyz", "top", "co.uk", "de", "app", "online", "shop", "info"];
const pick = <T>(a: readonly T[], i: number): T => a[i % a.length] as T;
const domains = Array.from({ length: 5000 }, (_, i) => `${i % 3 === 0 ? "www." : ""}${pick(words, i)}${i % 5 === 0 ? "-" : ""}${pick(words, i * 7 + 3)}${i}.${pick(tlds, i * 13)}`);
const inputs: Record<string, string[]> = {
  domain: domains,
  "domain (IDN)": domains.slice(0, 1000).map((d, i) => (i % 2 ? d.replace("a", "а") : `münchen-${d}`)),
  url: domains.map((d, i) => `https://${d}/path/${i}?q=${i}`),
  wallet_eth: Array.from({ length: 1000 }, (_, i) => `0x${(i * 2654435761).toString(16).padStart(8, "0").repeat(5).slice(0, 40)}`),
  wallet_btc: ["1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa", "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy", "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"],
  wallet_sol: ["TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA", "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"],
  email: domains.map((d, i) => `user${i}@${d}`),
  ip_address: Array.from({ length: 1000 }, (_, i) => `${(i * 7) % 223 + 1}.${i % 256}.${(i * 3) % 256}.${(i * 11) % 256}`),
  phone: ["+14155552671", "+442079460958", "+33612345678", "+919876543210", "+5511912345678"],
  social_account: domains.slice(0, 1000).map((_, i) => `x:@${pick(words, i)}_${i}`),
};

console.log(`node ${process.version}, ${cpus()[0]?.model ?? "cpu"}, ${seconds}s per case, one core`);
console.log("-- baseline");
const baseline = measure("new URL() alone (domains)", domains, (d) => new URL(`http://${d}/`));
console.log("-- parseEntity");
const results: Record<string, number> = {};
for (const [type, list] of Object.entries(inputs)) results[type] = measure(`parseEntity ${type}`, list, (s) => parseEntity(s));
console.log(`domain parses vs bare URL parse: ${((results.domain ?? 0) / baseline).toFixed(2)}×`);

// Chat-like text: mostly words, some links, the odd wallet and e-mail.
const sentences = [
  "hey everyone, the meeting moved to 3pm tomorrow, see you there",
  "check out https://github.com/nodejs/node/releases for the changelog",
  "airdrop live!!! claim at metamask-io.claim-airdrop.xyz before it ends",
  "send 0.1 eth to 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed and get 0.2 back",
  "lol that's hilarious 😂 what did he say next?",
  "contact support@binance-help.top for account recovery",
  "[official site](https://paypa1.com/login) — verify your account",
];
const text = Array.from({ length: 2000 }, (_, i) => pick(sentences, i * 5)).join("\n");
const bytes = Buffer.byteLength(text);
const msgs = text.split("\n");
console.log("-- extractEntities");
const perSecDoc = measure(`extract ${Math.round(bytes / 1024)} KB document`, [text], (t) => extractEntities(t, { maxEntities: 1000 }));
console.log(`extraction (one document):         ${((perSecDoc * bytes) / 1e6).toFixed(1).padStart(12)} MB/s`);
const perSecMsg = measure("extract per message", msgs, (m) => extractEntities(m));
const avgMsg = bytes / msgs.length;
console.log(`extraction (per chat message):     ${((perSecMsg * avgMsg) / 1e6).toFixed(1).padStart(12)} MB/s`);
