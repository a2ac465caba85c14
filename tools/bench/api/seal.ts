// What making and sealing a check's audit record costs the API (decision 0115): realistic domains
// screened by the library, then each verdict's record made (`auditRecordOf`) and sealed
// (`sealRecord`, the node:crypto keyring), beside a baseline that screens alone: rounds of a
// screen-only phase then a sealed one, in one run. Prints, per check, the median over rounds of
// (sealed − screen-only) time and
// growth of the old generation (old and large-object spaces) between full collections: what lands
// there is garbage only a full (mark-compact) collection reclaims, which under load comes every
// second or two and stalls every request in flight. Bytes are taken only from rounds in which no
// full collection ran (one would shrink the figure); the count of those left out is printed.
//   npx tsx tools/bench/api/seal.ts [checks per phase, default 20000] [rounds, default 5]
import { cpus } from "node:os";
import { constants, PerformanceObserver, type PerformanceEntry } from "node:perf_hooks";
import { getHeapSpaceStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { auditRecordOf, createScreener, sealRecord } from "@svc/core";
import { HmacAuditKeyring } from "@svc/persistence";
import { realisticDomains } from "./domains.js";

const CHECKS = Number(process.argv[2] ?? "20000");
const ROUNDS = Number(process.argv[3] ?? "5");
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
const OLD_SPACES = new Set(["old_space", "large_object_space"]);
const oldGeneration = (): number => getHeapSpaceStatistics().reduce((n, s) => n + (OLD_SPACES.has(s.space_name) ? s.space_used_size : 0), 0);
let fullCollections = 0;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) if ((e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) fullCollections++;
}).observe({ entryTypes: ["gc"] });

const screener = createScreener();
const keyring = new HmacAuditKeyring("the seal benchmark's audit key, 32+ characters");
const WARM_UP = 2000;
const domains = realisticDomains(2 * ROUNDS * CHECKS + 2 * WARM_UP);
const PREV = "ab".repeat(32);
let next = 0;
let sink = 0;

/** `n` checks, each screening a domain not screened before (a verdict's text is made once per verdict); every other record follows a previous one. */
async function checks(n: number, seal: boolean): Promise<void> {
  for (let i = 0; i < n; i++) {
    const r = await screener.screen(domains[next++ % domains.length] as string);
    if (!r.ok) continue;
    if (!seal) {
      sink += r.verdict.risk_score;
      continue;
    }
    const record = auditRecordOf({ accountId: "acc_bench", actor: { key_id: "key_bench", channel: "api" }, request: { entity_value: r.entity.value }, screened: r, now: new Date() });
    sink += sealRecord(record, i % 2 === 0 ? null : PREV, keyring).record_hash.length;
  }
}

/** One phase: µs per check, and old-generation bytes per check (null when a full collection ran during it). */
async function phase(seal: boolean): Promise<{ us: number; bytes: number | null; collections: number }> {
  gc();
  await new Promise((r) => setTimeout(r, 20)); // the observer hears of that collection before counting starts
  const before = oldGeneration();
  const collections = fullCollections;
  const t = process.hrtime.bigint();
  await checks(CHECKS, seal);
  const us = Number(process.hrtime.bigint() - t) / 1000 / CHECKS;
  const bytes = (oldGeneration() - before) / CHECKS;
  await new Promise((r) => setTimeout(r, 20));
  return { us, bytes: fullCollections === collections ? bytes : null, collections: fullCollections - collections };
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};

console.log(`node ${process.version}, ${cpus()[0]?.model.trim()} × ${cpus().length}; ${CHECKS.toLocaleString("en-US")} checks per phase, ${ROUNDS} rounds of screen-only then sealed`);
await checks(WARM_UP, false); // warm-up: both paths optimised
await checks(WARM_UP, true);
const screenUs: number[] = [];
const sealedUs: number[] = [];
const extraUs: number[] = [];
const screenBytes: number[] = [];
const extraBytes: number[] = [];
let left = 0;
const collections = { screen: 0, sealed: 0 };
for (let r = 0; r < ROUNDS; r++) {
  const a = await phase(false);
  const b = await phase(true);
  collections.screen += a.collections;
  collections.sealed += b.collections;
  screenUs.push(a.us);
  sealedUs.push(b.us);
  extraUs.push(b.us - a.us);
  if (a.bytes === null || b.bytes === null) left++;
  else {
    screenBytes.push(a.bytes);
    extraBytes.push(b.bytes - a.bytes);
  }
}
const bytes = (xs: number[]) => (xs.length === 0 ? "n/a (a full collection in every round)" : `+${Math.round(median(xs)).toLocaleString("en-US")} B per check`);
const row = (label: string, us: number, b: string) => console.log(`${label.padEnd(46)} ${us.toFixed(2).padStart(7)} µs per check${b ? `   old generation ${b}` : ""}`);
row("screen only (baseline)", median(screenUs), bytes(screenBytes));
row("screen, auditRecordOf and sealRecord", median(sealedUs), "");
row("the record made and sealed (median of rounds)", median(extraUs), bytes(extraBytes));
console.log(`full collections during the phases: ${collections.screen} screening only, ${collections.sealed} sealing (${ROUNDS} phases each)`);
console.log(`(medians over ${ROUNDS} rounds; bytes from ${ROUNDS - left} rounds, ${left} left out for a full collection during a phase)`);
if (sink === 0) console.log("(nothing screened)");
