// The learned domain model at run time: logistic regression over the features of features.ts,
// calibrated (Platt) to a probability, mapped onto 0–100, and explained by the named features
// that pushed it (decision 0023). Pure: weights come in as data from @svc/intel.
import { extract, fixedFeatures, HASHED, PREFIX_BITS, wordHash, type FeatureSpace, type HostView, type RuleFinding, type VocabEntry } from "./features.js";

/** The stored model (packages/intel/data/domain-model.json). */
export interface DomainModelData {
  readonly version: string;
  readonly hashed: number;
  /** Named features, in weight order after the hashed ones. */
  readonly named: readonly string[];
  /** Little-endian int16 weights (hashed, then named), base64; weight = int16 × scale. */
  readonly weights: string;
  readonly scale: number;
  /** Platt scaling: p = 1 / (1 + exp(−(a·z + b))) for the raw logit z. */
  readonly calibration: { readonly a: number; readonly b: number };
  /**
   * The map from calibrated log-odds t = a·z + b onto 0–100: knots [t, score], increasing in
   * both, interpolated linearly, flat beyond the ends (set on the valid months so that 30, 65 and
   * 85 fall where the legitimate names thin out; see decision 0023).
   */
  readonly scoreMap: readonly (readonly [number, number])[];
  readonly lureWords: readonly string[];
}

/** A crypto project's names and the registrable domains it owns (packages/intel/data/projects.json). */
export interface ProjectNames {
  readonly names: readonly string[];
  readonly domains: readonly string[];
}

export interface DomainModel {
  readonly version: string;
  readonly space: FeatureSpace;
  readonly weights: Float32Array;
  readonly names: readonly string[];
  readonly a: number;
  readonly b: number;
  readonly scoreMap: readonly (readonly [number, number])[];
  /** The score map as two arrays (log-odds, score), read on every check. */
  readonly knots: Knots;
  /** The plain words of every reason that does not depend on the name (all but a project's name found). */
  readonly descriptions: ReadonlyMap<string, string>;
}

/** A score map's knots as typed arrays. */
export interface Knots {
  readonly t: Float64Array;
  readonly s: Float64Array;
}

export function compileKnots(knots: readonly (readonly [number, number])[]): Knots {
  return { t: Float64Array.from(knots, (k) => k[0]), s: Float64Array.from(knots, (k) => k[1]) };
}

/** Score 0–100 of calibrated log-odds t by the model's knots (monotone, piecewise linear). */
export function mapScore(t: number, knots: readonly (readonly [number, number])[]): number {
  return scoreOnKnots(t, compileKnots(knots));
}

export function scoreOnKnots(t: number, k: Knots): number {
  const n = k.t.length;
  if (n === 0) return Math.round(100 / (1 + Math.exp(-t)));
  if (t <= (k.t[0] as number)) return Math.round(k.s[0] as number);
  if (t >= (k.t[n - 1] as number)) return Math.round(k.s[n - 1] as number);
  for (let i = 1; i < n; i++) {
    const t1 = k.t[i] as number;
    if (t <= t1) {
      const s1 = k.s[i] as number;
      const t0 = k.t[i - 1] as number;
      const s0 = k.s[i - 1] as number;
      return Math.round(t1 === t0 ? s1 : s0 + ((t - t0) / (t1 - t0)) * (s1 - s0));
    }
  }
  return Math.round(k.s[n - 1] as number);
}

/** Checks a score map: knots increasing in log-odds and in score, scores within 0–100. */
export function checkScoreMap(knots: readonly (readonly [number, number])[]): void {
  for (let i = 0; i < knots.length; i++) {
    const [t, s] = knots[i] as readonly [number, number];
    if (!Number.isFinite(t) || s < 0 || s > 100) throw new Error(`domain model: score map knot ${i} is out of range`);
    if (i > 0) {
      const [tp, sp] = knots[i - 1] as readonly [number, number];
      if (t <= tp || s < sp) throw new Error(`domain model: score map knots must increase (knot ${i})`);
    }
  }
}

const MIN_WORD = 4;
const MAX_WORD = 24;

/** Builds the lookup structures once (at start-up). */
export function buildFeatureSpace(named: readonly string[], lureWords: readonly string[], projects: readonly ProjectNames[], hosting: Iterable<string>): FeatureSpace {
  const namedIndex = new Map<string, number>();
  named.forEach((n, i) => namedIndex.set(n, HASHED + i));
  const words = new Map<number, VocabEntry[]>();
  const prefixes = new Uint32Array(PREFIX_BITS / 32);
  const wholeWords = new Uint32Array(PREFIX_BITS / 32);
  const put = (word: string, kind: VocabEntry["kind"]): void => {
    if (word.length < MIN_WORD || word.length > MAX_WORD) return;
    for (let k = 1; k <= word.length; k++) {
      const b = wordHash(word.slice(0, k)) & (PREFIX_BITS - 1);
      prefixes[b >>> 5] = (prefixes[b >>> 5] as number) | (1 << (b & 31));
    }
    const h = wordHash(word);
    const w = h & (PREFIX_BITS - 1);
    wholeWords[w >>> 5] = (wholeWords[w >>> 5] as number) | (1 << (w & 31));
    const entry = { word, kind, key: `${kind}:${word}` };
    const list = words.get(h);
    // A new list is made with its one entry: an array that grows by push from empty reserves room
    // for 17, and 8,800 of them were 1.2 MB of an idle process's heap (decision 0105).
    if (!list) words.set(h, [entry]);
    else if (!list.some((e) => e.word === word && e.kind === kind)) list.push(entry);
  };
  for (const w of lureWords) put(w, "lure");
  const owners = new Map<string, string[]>();
  for (const p of projects) {
    for (const n of p.names) put(n, "project");
    for (const d of p.domains) {
      const names = owners.get(d);
      if (!names) owners.set(d, [...new Set(p.names)]);
      else for (const n of p.names) if (!names.includes(n)) names.push(n);
    }
  }
  return { named: namedIndex, fixed: fixedFeatures(namedIndex), tlds: byPrefix(namedIndex, "tld:"), platforms: byPrefix(namedIndex, "hosting:"), rules: byPrefix(namedIndex, "rule:"), words, maxWord: MAX_WORD, minWord: MIN_WORD, prefixes, wholeWords, owners, hosting: new Set(hosting) };
}

/** The named features `prefix` + value, keyed by the value. */
export function byPrefix(named: ReadonlyMap<string, number>, prefix: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const [k, i] of named) if (k.startsWith(prefix)) out.set(k.slice(prefix.length), i);
  return out;
}

export function decodeWeights(b64: string, scale: number, length: number): Float32Array {
  const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  if (bytes.length !== length * 2) throw new Error(`domain model: ${bytes.length / 2} weights stored, ${length} expected`);
  const view = new DataView(bytes.buffer);
  const out = new Float32Array(length);
  for (let i = 0; i < length; i++) out[i] = view.getInt16(i * 2, true) * scale;
  return out;
}

export function encodeWeights(w: Float32Array): { weights: string; scale: number } {
  let max = 0;
  for (const x of w) max = Math.max(max, Math.abs(x));
  const scale = max === 0 ? 1 : max / 32767;
  const bytes = new Uint8Array(w.length * 2);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < w.length; i++) view.setInt16(i * 2, Math.round((w[i] as number) / scale), true);
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return { weights: btoa(s), scale };
}

export function buildDomainModel(data: DomainModelData, projects: readonly ProjectNames[], hosting: Iterable<string>): DomainModel {
  if (data.hashed !== HASHED) throw new Error(`domain model ${data.version}: built for ${data.hashed} hashed features, this engine uses ${HASHED}`);
  const space = buildFeatureSpace(data.named, data.lureWords, projects, hosting);
  checkScoreMap(data.scoreMap);
  return { version: data.version, space, weights: decodeWeights(data.weights, data.scale, HASHED + data.named.length), names: data.named, a: data.calibration.a, b: data.calibration.b, scoreMap: data.scoreMap, knots: compileKnots(data.scoreMap), descriptions: reasonDescriptions(data.named) };
}

/** The plain words of each named feature's reason (and the n-grams'), made once; a project's name found is worded per name. */
export function reasonDescriptions(named: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of ["ngrams", ...named]) if (f !== "project:foreign" && f !== "project:foreign+lure") out.set(f, describeReason({ feature: f, weight: 0 }, []));
  return out;
}

/** One reason the model gave a name its score. */
export interface Contribution {
  /** A named feature ("lure:claim", "tld:xyz", "rule:domain.lookalike_brand") or "ngrams". */
  readonly feature: string;
  readonly weight: number;
}

export interface ModelScore {
  /** Raw logit. */
  readonly logit: number;
  /** Calibrated probability that the name is a scam's, at equal priors (as many scams as not). */
  readonly probability: number;
  /** 0–100, by the model's score map. */
  readonly score: number;
  /** What pushed the score up, largest first (positive contributions only). */
  readonly reasons: readonly Contribution[];
  /** Words found in the name (lure:…, project:…); a scratch array, valid until the next call. */
  readonly words: readonly string[];
}

/** Raw logit of a host (for training and calibration). */
export function logitOf(model: Pick<DomainModel, "space" | "weights">, v: HostView, rules: readonly RuleFinding[]): number {
  const f = extract(v, rules, model.space);
  let z = 0;
  for (let i = 0; i < f.length; i++) z += (model.weights[f.index[i] as number] as number) * (f.value[i] as number);
  return z;
}

const sigmoid = (z: number): number => 1 / (1 + Math.exp(-z));

export function scoreHost(model: DomainModel, v: HostView, rules: readonly RuleFinding[]): ModelScore {
  // The n-grams come scored, summed from 0 in their order: the same sums, to the last bit, as adding
  // them one by one below. (Any the extractor still lists are added here, as before.)
  const f = extract(v, rules, model.space, model.weights);
  let z = f.ngrams;
  let ngrams = f.ngrams;
  // The four largest positive named contributions, kept in order (no array of every feature per check).
  const top: Contribution[] = [];
  for (let i = 0; i < f.length; i++) {
    const idx = f.index[i] as number;
    const c = (model.weights[idx] as number) * (f.value[i] as number);
    z += c;
    if (idx < HASHED) ngrams += c;
    else if (c > 0.05) keepTop(top, model.names[idx - HASHED] as string, c);
  }
  if (ngrams > 0.05) keepTop(top, "ngrams", ngrams);
  const t = model.a * z + model.b;
  const probability = sigmoid(t);
  return { logit: z, probability, score: scoreOnKnots(t, model.knots), reasons: top, words: f.words };
}

function keepTop(top: Contribution[], feature: string, weight: number): void {
  if (feature === "bias") return;
  if (top.length === 4 && (top[3] as Contribution).weight >= weight) return;
  let i = top.length < 4 ? top.length : 3;
  while (i > 0 && (top[i - 1] as Contribution).weight < weight) {
    if (i < 4) top[i] = top[i - 1] as Contribution;
    i--;
  }
  top[i] = { feature, weight };
  if (top.length > 4) top.length = 4;
}

/** A reason in plain words. */
export function describeReason(c: Contribution, words: readonly string[]): string {
  const f = c.feature;
  const projects = words.filter((w) => w.startsWith("project:")).map((w) => `"${w.slice(8)}"`);
  if (f === "ngrams") return "letter patterns common in recent scam names";
  if (f.startsWith("lure:")) return f === "lure:several" ? "several lure words" : `the lure word "${f.slice(5)}"`;
  if (f === "project:foreign" || f === "project:foreign+lure") return `${projects.slice(0, 2).join(", ") || "a crypto project's name"}, a crypto project's name, on a domain the project does not own${f.endsWith("+lure") ? ", beside a lure word" : ""}`;
  if (f === "project:own") return "a crypto project's name on its own domain";
  if (f.startsWith("tld:")) return `the .${f.slice(4)} top-level domain`;
  if (f === "hosting:any") return "a user's site on a free hosting platform";
  if (f.startsWith("hosting:")) return `a user's site on ${f.slice(8)}`;
  if (f === "subdomain:any") return "a name under someone else's domain";
  if (f.startsWith("rule:")) return `the rule signal ${f.slice(5)}`;
  switch (f) {
    case "num:digits":
    case "num:has_digits":
      return "digits in the name";
    case "num:hyphens":
    case "num:has_hyphens":
      return "hyphens in the name";
    case "num:length":
    case "num:long":
    case "num:short":
      return "the length of the name";
    case "num:entropy":
      return "how random its letters are";
    case "num:labels":
      return "how many labels the host has";
    default:
      return f;
  }
}
