// What sealing a check's audit record costs the API (decision 0115): realistic domains screened
// by the library, then each verdict's record made (`auditRecordOf`) and sealed (`sealRecord`, the
// node:crypto keyring), beside a baseline in the same run that screens alone. Prints the time per
// check and the old generation's growth per check, without a full collection in between: what a
// seal leaves there is garbage only a full (mark-compact) collection reclaims, which under load
// comes every second or two and stalls every request in flight.
//   npx tsx tools/bench/api/seal.ts [checks per round, default 20000] [rounds, default 3]
import { cpus } from "node:os";
import { getHeapSpaceStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { auditRecordOf, createScreener, sealRecord } from "@svc/core";
import { HmacAuditKeyring } from "@svc/persistence";
import { realisticDomains } from "./domains.js";

const CHECKS = Number(process.argv[2] ?? "20000");
const ROUNDS = Number(process.argv[3] ?? "3");
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
const oldSpace = (): number => getHeapSpaceStatistics().find((s) => s.space_name === "old_space")?.space_used_size ?? 0;

const screener = createScreener();
const keyring = new HmacAuditKeyring("the seal benchmark's audit key, 32+ characters");
const domains = realisticDomains(CHECKS * (ROUNDS + 1) * 2 + 1000);
let next = 0;
let sink = 0;

/** `n` checks, each screening a domain not screened before (a verdict's text is made once per verdict). */
async function checks(n: number, seal: boolean): Promise<void> {
  for (let i = 0; i < n; i++) {
    const r = await screener.screen(domains[next++ % domains.length] as string);
    if (!r.ok) continue;
    if (!seal) {
      sink += r.verdict.risk_score;
      continue;
    }
    const record = auditRecordOf({ accountId: "acc_bench", actor: { key_id: "key_bench", channel: "api" }, request: { entity_value: r.entity.value }, screened: r, now: new Date() });
    sink += sealRecord(record, sink % 2 === 0 ? null : "ab".repeat(32), keyring).record_hash.length;
  }
}

async function measure(seal: boolean): Promise<{ us: number; oldBytes: number }> {
  gc();
  const before = oldSpace();
  const t = process.hrtime.bigint();
  await checks(CHECKS, seal);
  const us = Number(process.hrtime.bigint() - t) / 1000 / CHECKS;
  return { us, oldBytes: (oldSpace() - before) / CHECKS };
}

console.log(`node ${process.version}, ${cpus()[0]?.model.trim()} × ${cpus().length}; ${CHECKS.toLocaleString("en-US")} checks per phase, ${ROUNDS} rounds (best of each)`);
await checks(2000, true); // warm-up: both paths optimised
const best = { screen: { us: Infinity, oldBytes: Infinity }, sealed: { us: Infinity, oldBytes: Infinity } };
for (let r = 0; r < ROUNDS; r++) {
  for (const [name, seal] of [["screen", false], ["sealed", true]] as const) {
    const m = await measure(seal);
    best[name] = { us: Math.min(best[name].us, m.us), oldBytes: Math.min(best[name].oldBytes, m.oldBytes) };
  }
}
const row = (label: string, us: number, bytes: number) => console.log(`${label.padEnd(44)} ${us.toFixed(2).padStart(7)} µs per check   old generation +${Math.round(bytes).toLocaleString("en-US").padStart(6)} B per check`);
row("screen (baseline)", best.screen.us, best.screen.oldBytes);
row("screen + auditRecordOf + sealRecord", best.sealed.us, best.sealed.oldBytes);
row("the record and its seal", best.sealed.us - best.screen.us, best.sealed.oldBytes - best.screen.oldBytes);
if (sink === 0) console.log("(nothing screened)");
