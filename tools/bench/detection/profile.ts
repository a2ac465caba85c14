// Screens the detection bench's domain mix in a loop, for a CPU profile of one domain check:
//   node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx tools/bench/detection/profile.ts [seconds] [rules]
// (an intel index of 100,000 synthetic entries: the lookup is a small part of a check; "rules"
// screens without the learned model).
import { createScreener, InMemoryIntelIndex, officialIntel, type IntelRecord } from "@svc/core";
import { domainQueries, generate } from "./inputs.js";

const seconds = Number(process.argv[2] ?? 5);
const rulesOnly = process.argv[3] === "rules";
const ENTRIES = Number(process.env.ENTRIES ?? 100_000);
const records: IntelRecord[] = generate(ENTRIES);
const index = InMemoryIntelIndex.from(officialIntel());
index.addAll(records);
const screener = createScreener(rulesOnly ? { intel: index, domainModel: null } : { intel: index });
const listed = records.filter((r, i) => i % 997 === 0 && r.type === "domain").map((r) => r.value);
const { domains } = domainQueries(listed, ENTRIES);
let n = 0;
const c0 = process.cpuUsage();
const t0 = performance.now();
while (performance.now() - t0 < seconds * 1000) {
  for (let k = 0; k < 1000; k++) await screener.screen(domains[(n + k) % domains.length] as string);
  n += 1000;
}
const c = process.cpuUsage(c0);
console.log(`${n} checks, ${((c.user + c.system) / n).toFixed(2)} µs CPU each`);
