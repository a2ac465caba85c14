import { dataVersions, englishWords, riskyKeywords, type Brand, type RiskyKeyword } from "@svc/intel";
import { INFLECTION_ENDINGS, wordSwapNames } from "./word-swap.js";
import { buildOutlineIndex, type OutlineIndex } from "./consonants.js";
import type { SourceRef } from "../types.js";
import { COMMON_WORDS } from "./common-words.js";
import { DeletionIndex } from "./deletion-index.js";
import { forEachPermutation, PERMUTATION_TECHNIQUES, type PermutationTechnique } from "./permutations.js";
import { allowedEdits, MIN_PERMUTATION_LENGTH, permutationTechniques } from "./policy.js";
import { asciiKeyTable, matchKey } from "./skeleton.js";
import { headKey, tailKey } from "./affix-key.js";
import { hashString, replacementHashes, StringFilter, type ReplacementHashes } from "../string-filter.js";
import { PackedStringMap, type ReadonlyStringMap } from "../packed-string-map.js";

/** One brand token, with what a reader should be shown when something imitates it. */
export interface TokenEntry {
  readonly token: string;
  readonly brand: Brand;
  /** Exact-match-only (short or ordinary-word) token. */
  readonly short: boolean;
  /** A short token whose misspellings still count (permutations and edit distance as for a distinctive one). */
  readonly typos: boolean;
  /** The official domain this token stands for: the one named like it, or the brand's first. */
  readonly target: string;
  /** Public suffixes the brand's official domains use ("com", "co.uk"): a swap to one of them is no swap. */
  readonly brandSuffixes: ReadonlySet<string>;
}

export interface KeywordEntry {
  readonly keyword: string;
  readonly weight: number;
}

/** Everything the detectors look up, built once at start-up. Treat as opaque. */
export interface ImpersonationIndex {
  readonly source: SourceRef;
  readonly tokens: readonly TokenEntry[];
  /** Every token (short ones too) → its entry number. */
  readonly tokenIds: ReadonlyMap<string, number>;
  /** Distinctive tokens (five letters or more) by their first and by their last four letters, for "binanceus", "getmetamask". */
  readonly tokensByHead: ReadonlyMap<number, readonly number[]>;
  readonly tokensByTail: ReadonlyMap<number, readonly number[]>;
  /** dnstwist permutation → token id × 16 + technique number (130,000 of them: packed, decision 0099). */
  readonly permutations: ReadonlyStringMap;
  /** Edit-distance index over distinctive tokens (ids are token ids). */
  readonly nearTokens: DeletionIndex;
  /**
   * Every token, ordinary word and permutation: a string the filter rules out is none of them,
   * which is the answer for almost every string looked up, at the cost of one pass over it.
   */
  readonly namedStrings: StringFilter;
  /**
   * Every token (a filter of a couple of kilobytes, which stays in the first-level cache): a string
   * it rules out is no token, found without the map hashing the string (most strings looked up
   * are fresh pieces of a name, hashed by `hashString` for `namedStrings` anyway; see `tokenIdOf`).
   */
  readonly tokenFilter: StringFilter;
  /** Skeleton match key (see skeleton.ts) → token id. */
  readonly skeletons: ReadonlyMap<string, number>;
  /** The skeleton keys, filtered by `hashReplaced(s, asciiKeyHashes)` (the key's hash, without building the key). */
  readonly skeletonFilter: StringFilter;
  /** Match key of each ASCII code point, so ASCII labels skip Unicode normalisation. */
  readonly asciiKeys: readonly string[];
  readonly asciiKeyHashes: ReplacementHashes;
  readonly officialDomains: ReadonlyMap<string, Brand>;
  /** Official domains whose name may be embedded in another host ("paypal.com" → PayPal). */
  readonly embeddable: ReadonlyMap<string, Brand>;
  /** The first label of every embeddable domain ("paypal"): a host word that is none of them starts no embedded domain. */
  readonly embeddableNames: ReadonlySet<string>;
  /** Embeddable `.com` official domains written without the dot ("paypalcom" → "paypal.com"). */
  readonly embeddableGlued: ReadonlyMap<string, string>;
  readonly userContentDomains: ReadonlySet<string>;
  readonly keywords: ReadonlyMap<string, KeywordEntry>;
  /** Keywords long enough to match as a prefix or suffix, by their first and by their last four letters. */
  readonly keywordsByHead: ReadonlyMap<number, readonly KeywordEntry[]>;
  readonly keywordsByTail: ReadonlyMap<number, readonly KeywordEntry[]>;
  /** Ordinary words that permutations and edit distance must not report. */
  readonly commonWords: ReadonlySet<string>;
  /** Names built from other words the way a brand's name is ("metacask" for "metamask"): weaker look-alikes (word-swap.ts). */
  readonly wordSwaps: ReadonlySet<string>;
  /** English words, for telling a name made of words from a misspelling (consonants.ts). */
  readonly englishWords: ReadonlySet<string>;
  /** Consonant outline of long distinctive tokens → token id ("mthrwlt" → myetherwallet; consonants.ts). */
  readonly outlines: OutlineIndex;
  readonly confusables: ReadonlyMap<number, string>;
  /** platform → official handle → brands. */
  readonly handlesByPlatform: ReadonlyMap<string, ReadonlyMap<string, readonly Brand[]>>;
  /** Official handle on any platform → brands. */
  readonly handlesAnyPlatform: ReadonlyMap<string, readonly Brand[]>;
  /** Edit-distance index over official handles (ids index `handleList`). */
  readonly nearHandles: DeletionIndex;
  readonly handleList: readonly { readonly handle: string; readonly brand: Brand }[];
}

export interface ImpersonationOptions {
  /** Lure words for combosquatting; defaults to @svc/intel's risky keywords. */
  readonly keywords?: readonly Pick<RiskyKeyword, "keyword" | "weight">[];
  /** Version of the brand data, recorded on every finding; defaults to @svc/intel's. */
  readonly version?: string;
  /** Words never reported as look-alikes; defaults to the bundled list. */
  readonly commonWords?: Iterable<string>;
  /** English words for recognising names made of other words; defaults to @svc/intel's `englishWords`. */
  readonly englishWords?: ReadonlySet<string>;
}

/** Keywords of fewer letters only count as whole parts ("sso" must not fire inside "lasso"). */
const MIN_KEYWORD_AFFIX = 5;
/** Tokens this long or longer count glued to a product or lure word ("binanceus"); shorter ones only as whole parts. */
const MIN_AFFIX_TOKEN = 5;
/** Official domains named by fewer letters are not distinctive enough to spot inside a host ("td.com"). */
const MIN_EMBEDDED_NAME = 3;

const TECHNIQUE_NUMBER: ReadonlyMap<PermutationTechnique, number> = new Map(PERMUTATION_TECHNIQUES.map((t, i) => [t, i]));

const firstLabel = (domain: string): string => domain.slice(0, domain.indexOf("."));

function targetFor(token: string, brand: Brand): string {
  return brand.officialDomains.find((d) => firstLabel(d) === token) ?? brand.officialDomains[0] ?? `${token}.com`;
}

function appendTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) {
    if (!list.includes(value)) list.push(value);
  } else map.set(key, [value]);
}

/**
 * Precomputes every structure the impersonation detectors need: token tables, dnstwist
 * permutations, the symmetric-deletion index, skeletons, official and user-content domains,
 * keywords and official handles. Pure and deterministic; done once per process.
 */
export function buildImpersonationIndex(
  brands: readonly Brand[],
  confusables: ReadonlyMap<number, string>,
  options: ImpersonationOptions = {},
): ImpersonationIndex {
  const version = options.version ?? dataVersions["svc/brands"] ?? "unknown";
  const commonWords = new Set(options.commonWords ?? COMMON_WORDS);
  // Inflections of an ordinary word whose typos count ("blockchains") are ordinary words too.
  for (const b of brands) for (const t of b.typoTokens) for (const ending of INFLECTION_ENDINGS) commonWords.add(t + ending);
  const tokens: TokenEntry[] = [];
  const tokenIds = new Map<string, number>();
  for (const brand of brands) {
    const brandSuffixes = new Set(brand.officialDomains.map((d) => d.slice(d.indexOf(".") + 1)));
    for (const token of brand.tokens) {
      if (tokenIds.has(token)) continue;
      tokenIds.set(token, tokens.length);
      tokens.push({ token, brand, short: brand.shortTokens.includes(token), typos: brand.typoTokens.includes(token), target: targetFor(token, brand), brandSuffixes });
    }
  }

  const asciiKeys = asciiKeyTable(confusables);
  const skeletons = new Map<string, number>();
  const perms = new PackedStringMap();
  const nearTokens = new DeletionIndex();
  const tokensByHead = new Map<number, number[]>();
  const tokensByTail = new Map<number, number[]>();
  const addPermutations = (id: number): void => {
    const t = tokens[id] as TokenEntry;
    forEachPermutation(t.token, permutationTechniques(t.token.length, t.short && !t.typos), (p, technique) => {
      if (technique !== "homoglyph" && p.length - (technique === "hyphenation" ? 1 : 0) < MIN_PERMUTATION_LENGTH) return;
      if (perms.has(p) || tokenIds.has(p) || commonWords.has(p)) return;
      perms.set(p, id * 16 + (TECHNIQUE_NUMBER.get(technique) as number));
    });
  };
  tokens.forEach((t, id) => {
    // Skeleton equality is a visual copy, so short tokens take part from four letters ("app1e").
    if (!t.short || t.token.length >= 4) {
      const key = matchKey(t.token, confusables);
      if (!skeletons.has(key)) skeletons.set(key, id);
    }
    addPermutations(id);
    if (t.typos) {
      const typoEdits = allowedEdits(t.token.length);
      if (typoEdits !== 0) nearTokens.add(t.token, id, typoEdits);
    }
    if (t.short) return;
    if (t.token.length >= MIN_AFFIX_TOKEN) {
      appendTo(tokensByHead, headKey(t.token), id);
      appendTo(tokensByTail, tailKey(t.token), id);
    }
    const edits = allowedEdits(t.token.length);
    if (edits !== 0) nearTokens.add(t.token, id, edits);
  });

  // Longest token first, so "coinbasepro…" is read as the longer name when both are tokens.
  for (const ids of [...tokensByHead.values(), ...tokensByTail.values()]) {
    ids.sort((a, b) => (tokens[b] as TokenEntry).token.length - (tokens[a] as TokenEntry).token.length);
  }

  const namedStrings = StringFilter.forCount(tokenIds.size + commonWords.size + perms.size);
  for (const set of [tokenIds.keys(), commonWords, perms.keys()]) for (const x of set) namedStrings.add(x);
  const tokenFilter = StringFilter.forCount(tokenIds.size);
  for (const t of tokenIds.keys()) tokenFilter.add(t);
  const skeletonFilter = StringFilter.forCount(skeletons.size);
  for (const key of skeletons.keys()) skeletonFilter.addHash(hashString(key));

  const officialDomains = new Map<string, Brand>();
  const embeddable = new Map<string, Brand>();
  const embeddableNames = new Set<string>();
  const embeddableGlued = new Map<string, string>();
  const userContentDomains = new Set<string>();
  for (const brand of brands) {
    for (const d of brand.officialDomains) {
      if (!officialDomains.has(d)) officialDomains.set(d, brand);
      const name = firstLabel(d);
      // Only domains named by a brand token: "live.com" or "office.com" inside another host name is no evidence.
      if (name.length >= MIN_EMBEDDED_NAME && tokenIds.has(name) && !embeddable.has(d)) {
        embeddable.set(d, brand);
        embeddableNames.add(name);
        // Glued only before "com", the one TLD everybody recognises without its dot ("paypalcom", not "binanceus").
        if (d.endsWith(".com") && d.indexOf(".") === d.length - 4) embeddableGlued.set(d.replaceAll(".", ""), d);
      }
    }
    for (const d of brand.userContentDomains) userContentDomains.add(d);
  }

  const keywords = new Map<string, KeywordEntry>();
  for (const k of options.keywords ?? riskyKeywords) keywords.set(k.keyword, { keyword: k.keyword, weight: k.weight });
  const keywordsByHead = new Map<number, KeywordEntry[]>();
  const keywordsByTail = new Map<number, KeywordEntry[]>();
  for (const k of keywords.values()) {
    if (k.keyword.length < MIN_KEYWORD_AFFIX) continue;
    appendTo(keywordsByHead, headKey(k.keyword), k);
    appendTo(keywordsByTail, tailKey(k.keyword), k);
  }

  const handlesByPlatform = new Map<string, Map<string, Brand[]>>();
  const handlesAnyPlatform = new Map<string, Brand[]>();
  const handleList: { handle: string; brand: Brand }[] = [];
  const nearHandles = new DeletionIndex();
  for (const brand of brands) {
    for (const [platform, handles] of Object.entries(brand.officialHandles)) {
      for (const h of handles) {
        let forPlatform = handlesByPlatform.get(platform);
        if (!forPlatform) handlesByPlatform.set(platform, (forPlatform = new Map()));
        appendTo(forPlatform, h, brand);
        const isNew = !handlesAnyPlatform.has(h);
        appendTo(handlesAnyPlatform, h, brand);
        const compact = h.replace(/[._-]/g, "");
        const edits = allowedEdits(compact.length);
        // A handle that is an ordinary word ("stripe", "ledger") gets no fuzzy matching, like its token.
        const ordinary = commonWords.has(compact) || (tokenIds.has(compact) && (tokens[tokenIds.get(compact) as number] as TokenEntry).short);
        if (isNew && edits !== 0 && !ordinary) {
          nearHandles.add(compact, handleList.length, edits);
          handleList.push({ handle: h, brand });
        }
      }
    }
  }

  return {
    source: { name: "brands", version },
    tokens,
    tokenIds,
    tokensByHead,
    tokensByTail,
    permutations: perms.trim(),
    nearTokens,
    namedStrings,
    tokenFilter,
    skeletons,
    skeletonFilter,
    asciiKeys,
    asciiKeyHashes: replacementHashes(asciiKeys),
    officialDomains,
    embeddable,
    embeddableNames,
    embeddableGlued,
    userContentDomains,
    keywords,
    keywordsByHead,
    keywordsByTail,
    commonWords,
    outlines: buildOutlineIndex(tokens),
    wordSwaps: wordSwapNames(tokens.filter((t) => !t.short || t.typos).map((t) => t.token), options.englishWords ?? englishWords),
    englishWords: options.englishWords ?? englishWords,
    confusables,
    handlesByPlatform,
    handlesAnyPlatform,
    nearHandles,
    handleList,
  };
}

/** Unpacks a `permutations` value. */
export const unpackPermutation = (packed: number): { readonly id: number; readonly technique: PermutationTechnique } => ({
  id: Math.floor(packed / 16),
  technique: PERMUTATION_TECHNIQUES[packed % 16] as PermutationTechnique,
});
