import type { Clock } from "@svc/core";
import type { DataSource } from "typeorm";
import { DEFAULT_RESILIENCE, MemoryProviderCache, ResilientProvider, TypeOrmProviderCache, type ProviderAdapter, type ProviderCache, type ResilienceOptions } from "./framework.js";
import { RdapBootstrap, rdapAdapter } from "./rdap.js";
import { abuseIpdbAdapter, safeBrowsingAdapter, urlhausAdapter } from "./http-adapters.js";
import { dnsAdapter } from "./dns.js";

export * from "./framework.js";
export { RdapBootstrap, fetchRdapBootstrap, IANA_RDAP_DNS_URL, rdapAdapter, type RdapOptions } from "./rdap.js";
export { abuseIpdbAdapter, safeBrowsingAdapter, urlhausAdapter } from "./http-adapters.js";
export { dnsAdapter, type DnsOptions } from "./dns.js";
export { PROVIDER_SETTING_NAMES, providerKeyVariable, providerSettingsFromEnv } from "./settings.js";

export const PROVIDER_NAMES = ["rdap", "dns", "safe-browsing", "urlhaus", "abuseipdb"] as const;
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
  readonly resilience?: Partial<ResilienceOptions>;
}

/** Which setting a provider needs besides being listed; a config loader reports it missing. */
export const PROVIDER_KEYS: Readonly<Record<ProviderName, keyof ProviderSettings | null>> = {
  rdap: null, dns: null, "safe-browsing": "safeBrowsingKey", urlhaus: "urlhausKey", abuseipdb: "abuseIpdbKey",
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
