// Feature extraction for the learned domain model (decision 0023). Pure: a host's own name, the
// findings of the rule detectors and the model's vocabulary in, a sparse vector out.
//
// A feature is either a hashed character n-gram of the name (indices 0 … HASHED-1) or a named
// feature (indices HASHED …): a lure word, a project's name on a domain it does not own, the TLD,
// the hosting platform, counts of digits and hyphens, length, entropy and the rule signals.
// Named features are what explanations are made of; n-grams are reported together as "letter
// patterns".

/** Number of hashed n-gram slots (a power of two). */
export const HASHED = 1 << 16;

/** A project name or lure word the model looks for inside a name. */
export interface VocabEntry {
  readonly word: string;
  readonly kind: "lure" | "project";
  /** `kind:word`, made once. */
  readonly key: string;
}

export interface FeatureSpace {
  /** Named features → index (≥ HASHED). */
  readonly named: ReadonlyMap<string, number>;
  /**
   * The same indices of the named features made of a prefix and a value (`tld:xyz`,
   * `hosting:vercel.app`, `rule:domain.lookalike_brand`), keyed by the value alone: looked up
   * without building the feature's name on every check.
   */
  readonly tlds: ReadonlyMap<string, number>;
  readonly platforms: ReadonlyMap<string, number>;
  readonly rules: ReadonlyMap<string, number>;
  /** The indices of the features every name is read for (`num:length`, `bias` …), looked up once. */
  readonly fixed: FixedFeatures;
  /** Hash of a word → the words with that hash (lure words and project names, 4–24 letters). */
  readonly words: ReadonlyMap<number, readonly VocabEntry[]>;
  readonly maxWord: number;
  readonly minWord: number;
  /** Bitmap (PREFIX_BITS bits) of the hashes of every prefix of a vocabulary word: a scan stops where none starts. */
  readonly prefixes: Uint32Array;
  /** Bitmap (PREFIX_BITS bits) of the hashes of the vocabulary's whole words: most substrings need no look-up in `words`. */
  readonly wholeWords: Uint32Array;
  /** Registrable domains → the project names they officially carry (a few each: an array, not a set). */
  readonly owners: ReadonlyMap<string, readonly string[]>;
  /** Hosting platforms whose sub-domains are users' sites (beyond the Public Suffix List's private section). */
  readonly hosting: ReadonlySet<string>;
}

/** The named features every name is read for, by a short key. */
export const FIXED_FEATURES = {
  projectForeign: "project:foreign",
  projectOwn: "project:own",
  projectForeignLure: "project:foreign+lure",
  lureSeveral: "lure:several",
  hostingAny: "hosting:any",
  subdomainAny: "subdomain:any",
  length: "num:length",
  short: "num:short",
  long: "num:long",
  digits: "num:digits",
  hasDigits: "num:has_digits",
  hyphens: "num:hyphens",
  hasHyphens: "num:has_hyphens",
  labels: "num:labels",
  entropy: "num:entropy",
  bias: "bias",
} as const;

/** Their indices in a feature space (undefined for a feature the model does not have). */
export type FixedFeatures = { readonly [K in keyof typeof FIXED_FEATURES]: number | undefined };

/** The fixed features' indices, looked up in `named` once. */
export function fixedFeatures(named: ReadonlyMap<string, number>): FixedFeatures {
  const out: Record<string, number | undefined> = {};
  for (const [key, feature] of Object.entries(FIXED_FEATURES)) out[key] = named.get(feature);
  return out as FixedFeatures;
}

/** What the extractor reads of a parsed host. */
export interface HostView {
  readonly host: string;
  readonly registered: string;
  readonly suffix: string;
  readonly tld: string;
  readonly privateSuffix: boolean;
}

/**
 * A rule detector's finding as the model reads it: `domain.*` codes with their strength; not the
 * model's own, nor what lists say of a name (`domain.popular_site`, made after the model has
 * read the name, so that training, which gets every finding, reads what a check's model reads).
 */
export interface RuleFinding {
  readonly code: string;
  readonly family?: string;
  readonly strength?: number;
}

export interface Features {
  /** Scratch buffers: entries 0 … length−1 are this host's. */
  readonly index: Int32Array;
  readonly value: Float32Array;
  readonly length: number;
  /**
   * With the model's weights given to `extract`: the n-grams' part of the logit, summed in their
   * order (the n-grams are then not in `index` and `value`); otherwise 0.
   */
  readonly ngrams: number;
  /** Words found (kind:word) and whether a project's name was on a domain it does not own. */
  readonly words: readonly string[];
}

/** A 32-bit FNV-1a step. */
const step = (h: number, c: number): number => Math.imul(h ^ c, 0x01000193);
const FNV = 0x811c9dc5;

/** The n-gram hash's start in the main label and in the other labels (one FNV step of a salt). */
const MAIN_SEED = step(FNV, 0x9e3779b1);
const OTHER_SEED = step(FNV, 0x85ebca6b);

/** Size of the prefix bitmap, in bits (a power of two). */
export const PREFIX_BITS = 1 << 20;

/** Hash of a whole word as the vocabulary is keyed. */
export function wordHash(w: string): number {
  let h = FNV;
  for (let i = 0; i < w.length; i++) h = step(h, w.charCodeAt(i));
  return h >>> 0;
}

// Scratch buffers: extraction is synchronous and never re-entered.
const IDX = new Int32Array(1024);
const VAL = new Float32Array(1024);
const FEATURES: { index: Int32Array; value: Float32Array; length: number; ngrams: number; words: string[] } = { index: IDX, value: VAL, length: 0, ngrams: 0, words: [] };

/**
 * The part of a host its registrant chose: without the public suffix, and on a hosting platform
 * without the platform's own name (`claim-x.vercel.app` → `claim-x`, `a.b.weebly.com` → `a.b`).
 */
export function ownName(v: HostView, platform: string | null): string {
  const base = platform && !v.privateSuffix ? v.registered : v.suffix;
  return v.host.length > base.length ? v.host.slice(0, v.host.length - base.length - 1) : "";
}

/** Whether `codes` holds `word` from position `at`. */
function sameCodes(codes: Uint16Array, at: number, word: string): boolean {
  for (let k = 0; k < word.length; k++) if (codes[at + k] !== word.charCodeAt(k)) return false;
  return true;
}

/** The hosting platform a user's site is on, or null. */
export function platformOf(v: HostView, space: FeatureSpace): string | null {
  if (v.privateSuffix) return v.suffix;
  if (v.host !== v.registered && space.hosting.has(v.registered)) return v.registered;
  return null;
}

// (Module-level helpers over the scratch buffers rather than closures made per call: this runs on every check.)
let n = 0;
function add(i: number, x: number): void {
  if (n < IDX.length) {
    IDX[n] = i;
    VAL[n] = x;
    n++;
  }
}
function named(space: FeatureSpace, name: string, x = 1): void {
  const i = space.named.get(name);
  if (i !== undefined) add(i, x);
}
function namedAt(i: number | undefined, x: number): void {
  if (i !== undefined) add(i, x);
}
const COUNTS = new Uint8Array(38);
/** `q · log2 q` for q = k / total, remembered for names of up to 63 characters (the same value, not recomputed). */
const PLOGP = new Float64Array(64 * 64).fill(Number.NaN);
function plogp(k: number, total: number): number {
  const q = k / total;
  if (total >= 64) return q * Math.log2(q);
  const at = total * 64 + k;
  const known = PLOGP[at] as number;
  if (known === known) return known;
  const x = q * Math.log2(q);
  PLOGP[at] = x;
  return x;
}
/** One label's character codes between its boundary marks (grown for a longer name). */
let CODES = new Uint16Array(256);
/** The name without its hyphens, as character codes (words are read across hyphens). */
const COMPACT = new Uint16Array(256);

/**
 * How many n-grams `extract` reads in `name`: a label of L characters is L + 2 codes with its
 * boundary marks, so L 3-grams, L − 1 4-grams and L − 2 5-grams (none below zero).
 */
function gramCount(name: string): number {
  let count = 0;
  let start = 0;
  for (let e = 0; e <= name.length; e++) {
    if (e < name.length && name.charCodeAt(e) !== 0x2e) continue;
    const l = e - start;
    count += l + Math.max(0, l - 1) + Math.max(0, l - 2);
    start = e + 1;
  }
  return count;
}

/**
 * The features of a host. `rules` are the rule detectors' findings: each `domain.*` code (the
 * model's own findings aside) is a feature at its highest strength, in the order first found. The
 * returned arrays are views of scratch buffers: read them before the next call.
 *
 * Given the model's `weights`, the n-grams are scored as they are hashed (their weight times their
 * value, summed in the same order, into `ngrams`) rather than listed: a check needs only their sum,
 * and they are most of a name's features. Training lists them.
 */
export function extract(v: HostView, rules: readonly RuleFinding[], space: FeatureSpace, weights?: Float32Array): Features {
  n = 0;
  // A new list only after one that found words: emptying an array by its length is a call into
  // the runtime, dearer than making one.
  if (FEATURES.words.length > 0) FEATURES.words = [];
  const words = FEATURES.words;
  const platform = platformOf(v, space);
  const fixed = space.fixed;
  const name = ownName(v, platform);
  // The label the registrant chose (the user's label on a platform).
  const main = name.slice(name.lastIndexOf(".") + 1);

  // Character 3- to 5-grams of every label, with boundary marks; the main label in its own space.
  let letters = 0;
  let digits = 0;
  let hyphens = 0;
  const counts = COUNTS;
  counts.fill(0);
  // The name's character codes, each label between boundary marks ('^' 0x5e, '$' 0x24): label
  // `a.bc` is `^a$^bc$`, read once here rather than a character at a time per n-gram.
  const codes = name.length + 2 > CODES.length ? (CODES = new Uint16Array(2 * name.length + 2)) : CODES;
  // The n-grams weigh as one unit vector (below), so each one's value is known before they are
  // read when their number is; as listed, the value is stored as a 32-bit float.
  const scored = weights === undefined ? -1 : gramCount(name);
  const fused = weights !== undefined && scored <= IDX.length;
  const gramValue = fused && scored > 0 ? Math.fround(1 / Math.sqrt(scored)) : 0;
  let ngrams = 0;
  let start = 0;
  for (let e = 0; e <= name.length; e++) {
    if (e < name.length && name.charCodeAt(e) !== 0x2e) continue;
    const seed = e === name.length ? MAIN_SEED : OTHER_SEED;
    // The label's positions start-1 … e, boundaries included, at codes[0 … last].
    const last = e - start + 1;
    codes[0] = 0x5e;
    for (let p = start; p < e; p++) codes[p - start + 1] = name.charCodeAt(p);
    codes[last] = 0x24;
    if (fused && weights) {
      // Each start's 3-, 4- and 5-gram, written out: the same hashes, weighed and summed in the
      // same order (the same sum to the last bit), without the general loop's tests per character.
      for (let i = 0; i + 2 <= last; i++) {
        let h = step(step(step(seed, codes[i] as number), codes[i + 1] as number), codes[i + 2] as number);
        ngrams += (weights[h & (HASHED - 1)] as number) * gramValue;
        if (i + 3 > last) continue;
        h = step(h, codes[i + 3] as number);
        ngrams += (weights[h & (HASHED - 1)] as number) * gramValue;
        if (i + 4 > last) continue;
        h = step(h, codes[i + 4] as number);
        ngrams += (weights[h & (HASHED - 1)] as number) * gramValue;
      }
    } else {
      for (let i = 0; i < last; i++) {
        let h = seed;
        for (let k = 0; k < 5 && i + k <= last; k++) {
          h = step(h, codes[i + k] as number);
          if (k >= 2) add((h >>> 0) & (HASHED - 1), 1);
        }
      }
    }
    for (let p = 1; p < last; p++) {
      const c = codes[p] as number;
      if (c === 0x2d) hyphens++;
      else if (c >= 0x30 && c <= 0x39) {
        digits++;
        counts[26 + c - 0x30] = (counts[26 + c - 0x30] as number) + 1;
      } else if (c >= 0x61 && c <= 0x7a) {
        letters++;
        counts[c - 0x61] = (counts[c - 0x61] as number) + 1;
      } else counts[36] = (counts[36] as number) + 1;
    }
    start = e + 1;
  }
  // The n-grams weigh as one unit vector: a long name is not more suspect for having more of them.
  const grams = n;
  if (grams > 0) {
    const unit = 1 / Math.sqrt(grams);
    for (let i = 0; i < grams; i++) VAL[i] = unit;
  }
  // Words inside the labels: lure words and projects' names, read across hyphens.
  const compact = COMPACT;
  let clen = 0;
  for (let p = 0; p < name.length && clen < compact.length; p++) {
    const c = name.charCodeAt(p);
    if (c !== 0x2d) compact[clen++] = c;
  }
  let foreignProject = false;
  let ownProject = false;
  let lures = 0;
  // Whose domain this is, looked up only once a project's name is found (most names hold none).
  let owners: readonly string[] | undefined | null = null;
  const prefixes = space.prefixes;
  const { minWord, maxWord, wholeWords } = space;
  for (let i = 0; i + minWord <= clen; i++) {
    // The first minWord − 1 characters are hashed without a test: no word is shorter, and nearly
    // every string that short starts some word. (The bitmaps only spare work: a word found
    // is always checked letter by letter.)
    let h = FNV;
    let j = i;
    for (; j < i + minWord - 1; j++) {
      const c = compact[j] as number;
      if (c === 0x2e) break;
      h = step(h, c);
    }
    if (j < i + minWord - 1) continue;
    for (; j < clen && j - i < maxWord; j++) {
      const c = compact[j] as number;
      if (c === 0x2e) break;
      h = step(h, c);
      const hb = (h >>> 0) & (PREFIX_BITS - 1);
      if (((prefixes[hb >>> 5] as number) & (1 << (hb & 31))) === 0) break;
      if (((wholeWords[hb >>> 5] as number) & (1 << (hb & 31))) === 0) continue;
      const hits = space.words.get(h >>> 0);
      if (!hits) continue;
      for (const w of hits) {
        if (w.word.length !== j - i + 1 || !sameCodes(compact, i, w.word)) continue;
        if (w.kind === "lure") {
          if (!words.includes(w.key)) {
            words.push(w.key);
            named(space, w.key);
            lures++;
          }
        } else if ((owners === null ? (owners = space.owners.get(v.registered)) : owners)?.includes(w.word)) {
          ownProject = true;
        } else if (!words.includes(w.key)) {
          words.push(w.key);
          foreignProject = true;
        }
      }
    }
  }
  if (foreignProject) namedAt(fixed.projectForeign, 1);
  if (ownProject) namedAt(fixed.projectOwn, 1);
  if (foreignProject && lures > 0) namedAt(fixed.projectForeignLure, 1);
  if (lures > 1) namedAt(fixed.lureSeveral, 1);
  namedAt(space.tlds.get(v.tld), 1);
  if (platform) {
    namedAt(fixed.hostingAny, 1);
    namedAt(space.platforms.get(platform), 1);
  } else if (v.host !== v.registered) {
    namedAt(fixed.subdomainAny, 1);
  }
  const len = main.length;
  namedAt(fixed.length, Math.min(1, len / 32));
  if (len <= 5) namedAt(fixed.short, 1);
  if (len >= 20) namedAt(fixed.long, 1);
  namedAt(fixed.digits, Math.min(1, digits / 6));
  if (digits > 0) namedAt(fixed.hasDigits, 1);
  namedAt(fixed.hyphens, Math.min(1, hyphens / 4));
  if (hyphens > 0) namedAt(fixed.hasHyphens, 1);
  let labels = name === "" ? 0 : 1;
  for (let i = name.indexOf("."); i >= 0; i = name.indexOf(".", i + 1)) labels++;
  namedAt(fixed.labels, Math.min(1, labels / 4));
  const total = letters + digits;
  if (total > 0) {
    let ent = 0;
    for (let i = 0; i < counts.length; i++) {
      const k = counts[i] as number;
      if (k === 0) continue;
      ent -= plogp(k, total);
    }
    namedAt(fixed.entropy, Math.min(1, ent / 4.5));
  }
  // Rule findings: one feature per code at its highest strength, in the order first found.
  const first = n;
  for (let r = 0; r < rules.length; r++) {
    const f = rules[r] as RuleFinding;
    if (f.family === "model" || f.family === "intel" || !f.code.startsWith("domain.")) continue;
    const i = space.rules.get(f.code);
    if (i === undefined) continue;
    const x = f.strength ?? 1;
    let k = first;
    while (k < n && IDX[k] !== i) k++;
    if (k < n) {
      if (x > (VAL[k] as number)) VAL[k] = x;
    } else if (x > 0) add(i, x);
  }
  namedAt(fixed.bias, 1);
  FEATURES.length = n;
  FEATURES.ngrams = ngrams;
  return FEATURES;
}
