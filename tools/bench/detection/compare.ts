// CPU time per domain check of two versions of the engine, interleaved in one process so that both
// see the same load (the machine is shared: separate runs minutes apart differ by more than the
// changes being measured).
//   npx tsx tools/bench/detection/compare.ts <old-root> <new-root> [rounds] [ms-per-round]
// A root is a checkout holding packages/core and packages/intel (e.g. `git archive <commit>
// packages/core packages/intel | tar -x -C /tmp/old`, plus tsconfig.base.json). Each is bundled
// with esbuild into a temporary folder and loaded side by side (import.meta.url in the bundle names
// the root's packages/intel/src/index.ts, where @svc/intel reads its data files and resolves the
// lists' packages from: a root without node_modules gets a link to this checkout's); both screen the bench's domain mix
// (tools/bench/detection/inputs.ts) with an intel index of 200,000 synthetic entries. Before
// timing, the two must give the same verdicts on the first 3,000 domains (ids and times aside).
// Prints the per-round minimum and median of µs of CPU per check and the median of the per-round
// ratios; run it both ways round (old new, then new old): the module loaded second tends to read a
// few per cent faster.
import { existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import type { Screener } from "@svc/core";
import { domainQueries, generate } from "./inputs.js";

const [oldRoot, newRoot] = [process.argv[2], process.argv[3]];
if (!oldRoot || !newRoot) throw new Error("usage: compare.ts <old-root> <new-root> [rounds] [ms-per-round]");
const rounds = Number(process.argv[4] ?? 20);
const ms = Number(process.argv[5] ?? 300);
const ENTRIES = 200_000;

interface Engine {
  createScreener(o: { intel: unknown }): Screener;
  InMemoryIntelIndex: { from(records: unknown[]): { addAll(records: unknown[]): void } };
  officialIntel(): unknown[];
}

const dir = mkdtempSync(join(tmpdir(), "svc-compare-"));
async function bundle(root: string, name: string): Promise<Engine> {
  const entry = join(dir, `${name}-entry.ts`);
  writeFileSync(entry, 'export { createScreener, InMemoryIntelIndex, officialIntel } from "@svc/core";\n');
  const out = join(dir, `${name}.mjs`);
  // @svc/intel reads ../data/*.json and the lists' package files at run time, relative to itself.
  if (!existsSync(join(root, "node_modules"))) symlinkSync(join(process.cwd(), "node_modules"), join(root, "node_modules"), "dir");
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: "node",
    format: "esm",
    outfile: out,
    alias: { "@svc/core": join(root, "packages/core/src/index.ts"), "@svc/intel": join(root, "packages/intel/src/index.ts") },
    nodePaths: [join(process.cwd(), "node_modules")],
    define: { "import.meta.url": JSON.stringify(pathToFileURL(join(root, "packages/intel/src/index.ts")).href) },
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    logLevel: "error",
  });
  return (await import(pathToFileURL(out).href)) as Engine;
}

const records = generate(ENTRIES);
const listed = records.filter((r, i) => i % 997 === 0 && r.type === "domain").map((r) => r.value);
const { domains } = domainQueries(listed, ENTRIES);
async function screener(root: string, name: string): Promise<Screener> {
  const m = await bundle(root, name);
  const index = m.InMemoryIntelIndex.from(m.officialIntel());
  index.addAll(records);
  return m.createScreener({ intel: index });
}
const A = await screener(oldRoot, "old");
const B = await screener(newRoot, "new");
rmSync(dir, { recursive: true, force: true });

const timeless = (x: unknown): string => JSON.stringify(x).replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, "T");
for (let i = 0; i < 3000; i++) {
  const a = await A.screen(domains[i] as string);
  const b = await B.screen(domains[i] as string);
  if (!a.ok || !b.ok) throw new Error(`${domains[i]}: did not parse`);
  if (timeless({ ...a.verdict, id: 0 }) !== timeless({ ...b.verdict, id: 0 }) || timeless(a.findings) !== timeless(b.findings)) throw new Error(`${domains[i]}: the two versions give different verdicts`);
}

let cursor = 0;
async function round(s: Screener): Promise<number> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  let n = 0;
  while (performance.now() - t0 < ms) {
    for (let k = 0; k < 200; k++) await s.screen(domains[(cursor + k) % domains.length] as string);
    cursor += 200;
    n += 200;
  }
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / n;
}
for (let w = 0; w < 4; w++) {
  await round(A);
  await round(B);
}
const ra: number[] = [];
const rb: number[] = [];
for (let r = 0; r < rounds; r++) {
  if (r % 2 === 0) {
    ra.push(await round(A));
    rb.push(await round(B));
  } else {
    rb.push(await round(B));
    ra.push(await round(A));
  }
}
const median = (x: readonly number[]): number => [...x].sort((p, q) => p - q)[Math.floor(x.length / 2)] as number;
const min = (x: readonly number[]): number => Math.min(...x);
console.log(`µs of CPU per domain check, ${rounds} rounds of ${ms} ms each, alternating`);
console.log(`old: min ${min(ra).toFixed(2)}, median ${median(ra).toFixed(2)}`);
console.log(`new: min ${min(rb).toFixed(2)}, median ${median(rb).toFixed(2)}`);
console.log(`new ÷ old: of the minima ${(min(rb) / min(ra)).toFixed(3)}, median of the rounds' ratios ${median(ra.map((a, i) => (rb[i] as number) / a)).toFixed(3)} (load average ${(loadavg()[0] ?? 0).toFixed(2)})`);
