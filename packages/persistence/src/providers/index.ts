import { readFileSync, statSync } from "node:fs";
import { basename } from "node:path";
import type { Clock } from "@svc/core";
import type { DataSource } from "typeorm";
import { DEFAULT_RESILIENCE, MemoryProviderCache, ResilientProvider, TypeOrmProviderCache, type ProviderAdapter, type ProviderCache, type ResilienceOptions } from "./framework.js";
import { RdapBootstrap, rdapAdapter } from "./rdap.js";
import { abuseIpdbAdapter, safeBrowsingAdapter, urlhausAdapter } from "./http-adapters.js";
import { dnsAdapter } from "./dns.js";
import { chainabuseAdapter, explorerAdapter } from "./wallet-adapters.js";
import { ipqsPhoneAdapter } from "./phone-adapter.js";
import { asnAdapter, AsnTable, parseAsnList, torExitAdapter } from "./ip-data.js";

export * from "./framework.js";
export { RdapBootstrap, fetchRdapBootstrap, IANA_RDAP_DNS_URL, rdapAdapter, type RdapOptions } from "./rdap.js";
export { abuseIpdbAdapter, safeBrowsingAdapter, urlhausAdapter } from "./http-adapters.js";
export { dnsAdapter, type DnsOptions } from "./dns.js";
export { chainabuseAdapter, explorerAdapter, type ExplorerOptions } from "./wallet-adapters.js";
export { ipqsPhoneAdapter } from "./phone-adapter.js";
export { asnAdapter, AsnTable, parseAsnList, parseTorExitAddresses, torExitAdapter, TOR_EXIT_ADDRESSES_URL, type TorExitList, type TorExitOptions } from "./ip-data.js";
export { PROVIDER_SETTING_NAMES, providerKeyVariable, providerSettingsFromEnv } from "./settings.js";

export const PROVIDER_NAMES = ["rdap", "dns", "safe-browsing", "urlhaus", "abuseipdb", "tor-exits", "ip-asn", "chainabuse", "explorer", "ipqualityscore"] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

/** The providers' settings, as the config loader parsed them from the environment. */
export interface ProviderSettings {
  /** Enabled providers (SVC_PROVIDERS); none by default: no outside calls unless asked for. */
  readonly enabled: readonly ProviderName[];
  readonly rdapUrl?: string | undefined;
  readonly rdapBootstrapPath?: string | undefined;
  readonly dnsServers?: readonly string[] | undefined;
  readonly safeBrowsingKey?: string | undefined;
  readonly safeBrowsingUrl?: string | undefined;
  readonly urlhausKey?: string | undefined;
  readonly urlhausUrl?: string | undefined;
  readonly abuseIpdbKey?: string | undefined;
  readonly abuseIpdbUrl?: string | undefined;
  /** The Tor exit list's URL (default: the Tor Project's). */
  readonly torExitsUrl?: string | undefined;
  /** An iptoasn TSV file (`.gz` allowed), and optionally a list of hosting AS numbers. */
  readonly ipAsnFile?: string | undefined;
  readonly hostingAsnFile?: string | undefined;
  readonly chainabuseKey?: string | undefined;
  readonly chainabuseUrl?: string | undefined;
  /** An Etherscan-compatible `api` endpoint (with its fixed parameters, e.g. `?chainid=1`), and its key if it needs one. */
  readonly explorerUrl?: string | undefined;
  readonly explorerKey?: string | undefined;
  readonly ipqsKey?: string | undefined;
  readonly ipqsUrl?: string | undefined;
  readonly resilience?: Partial<ResilienceOptions>;
}

/** Which setting a provider needs besides being listed; a config loader reports it missing. */
export const PROVIDER_KEYS: Readonly<Record<ProviderName, keyof ProviderSettings | null>> = {
  rdap: null, dns: null, "safe-browsing": "safeBrowsingKey", urlhaus: "urlhausKey", abuseipdb: "abuseIpdbKey",
  "tor-exits": null, "ip-asn": "ipAsnFile", chainabuse: "chainabuseKey", explorer: "explorerUrl", ipqualityscore: "ipqsKey",
};

/** The adapter of each enabled provider (thin, unwrapped). */
export function providerAdapters(settings: ProviderSettings, clock: Clock): ProviderAdapter[] {
  const out: ProviderAdapter[] = [];
  for (const name of settings.enabled) {
    switch (name) {
      case "rdap":
        out.push(rdapAdapter({ baseUrl: settings.rdapUrl, bootstrap: RdapBootstrap.load(settings.rdapBootstrapPath), clock }));
        break;
      case "dns":
        out.push(dnsAdapter({ servers: settings.dnsServers ?? [] }));
        break;
      case "safe-browsing":
        out.push(safeBrowsingAdapter({ key: settings.safeBrowsingKey ?? "", baseUrl: settings.safeBrowsingUrl, clock }));
        break;
      case "urlhaus":
        out.push(urlhausAdapter({ key: settings.urlhausKey ?? "", baseUrl: settings.urlhausUrl }));
        break;
      case "abuseipdb":
        out.push(abuseIpdbAdapter({ key: settings.abuseIpdbKey ?? "", baseUrl: settings.abuseIpdbUrl }));
        break;
      case "tor-exits":
        out.push(torExitAdapter({ url: settings.torExitsUrl, clock }));
        break;
      case "ip-asn":
        out.push(ipAsnFromFiles(settings.ipAsnFile ?? "", settings.hostingAsnFile));
        break;
      case "chainabuse":
        out.push(chainabuseAdapter({ key: settings.chainabuseKey ?? "", baseUrl: settings.chainabuseUrl }));
        break;
      case "explorer":
        out.push(explorerAdapter({ baseUrl: settings.explorerUrl ?? "", key: settings.explorerKey, clock }));
        break;
      case "ipqualityscore":
        out.push(ipqsPhoneAdapter({ key: settings.ipqsKey ?? "", baseUrl: settings.ipqsUrl }));
        break;
    }
  }
  return out;
}

/**
 * The enabled providers, each behind the shared cache (the database when given, else memory),
 * timeouts, retries, a circuit breaker and a rate limit.
 */
export function buildReputationProviders(settings: ProviderSettings, deps: { dataSource?: DataSource; clock: Clock; fetch?: typeof fetch; cache?: ProviderCache }): ResilientProvider[] {
  const cache = deps.cache ?? (deps.dataSource ? new TypeOrmProviderCache(deps.dataSource) : new MemoryProviderCache());
  const options = { ...DEFAULT_RESILIENCE, ...settings.resilience };
  return providerAdapters(settings, deps.clock).map((a) => new ResilientProvider(a, cache, deps.clock, options, deps.fetch ?? fetch));
}

/** Loaded tables by file (path, size and time): the API and its in-process worker share one copy. */
const asnTables = new Map<string, AsnTable>();

/** The ip-asn provider from its fed files; a missing or malformed file stops the start, naming it. */
function ipAsnFromFiles(tablePath: string, hostingPath: string | undefined): ProviderAdapter {
  const stamp = (path: string): string => `${basename(path)}@${statSync(path).mtime.toISOString().slice(0, 10)}`;
  let table: AsnTable;
  try {
    const st = statSync(tablePath);
    const id = `${tablePath}\u0000${st.size}\u0000${st.mtimeMs}`;
    table = asnTables.get(id) ?? AsnTable.load(tablePath);
    asnTables.clear();
    asnTables.set(id, table);
  } catch (e) {
    throw new Error(`SVC_IP_ASN_FILE (${tablePath}): ${(e as Error).message}`);
  }
  let hosting: Map<number, string> | undefined;
  if (hostingPath) {
    try {
      hosting = parseAsnList(readFileSync(hostingPath, "utf8"));
    } catch (e) {
      throw new Error(`SVC_HOSTING_ASN_FILE (${hostingPath}): ${(e as Error).message}`);
    }
  }
  return asnAdapter({ table, hosting, version: hostingPath ? `${stamp(tablePath)}+${stamp(hostingPath)}` : stamp(tablePath) });
}
