import { existsSync } from "node:fs";
import { PROVIDER_KEYS, PROVIDER_NAMES, type ProviderName, type ProviderSettings } from "./index.js";

const KEY_VARS: Readonly<Record<string, string>> = {
  safeBrowsingKey: "SVC_SAFE_BROWSING_KEY", urlhausKey: "SVC_URLHAUS_KEY", abuseIpdbKey: "SVC_ABUSEIPDB_KEY",
  ipAsnFile: "SVC_IP_ASN_FILE", chainabuseKey: "SVC_CHAINABUSE_KEY", explorerUrl: "SVC_EXPLORER_URL", ipqsKey: "SVC_IPQS_KEY",
};

/** Every environment variable the providers' settings read (docs/providers.md). */
export const PROVIDER_SETTING_NAMES: readonly string[] = [
  "SVC_PROVIDERS", "SVC_RDAP_URL", "SVC_RDAP_BOOTSTRAP", "SVC_DNS_SERVERS",
  "SVC_SAFE_BROWSING_KEY", "SVC_SAFE_BROWSING_URL", "SVC_URLHAUS_KEY", "SVC_URLHAUS_URL", "SVC_ABUSEIPDB_KEY", "SVC_ABUSEIPDB_URL",
  "SVC_TOR_EXITS_URL", "SVC_IP_ASN_FILE", "SVC_HOSTING_ASN_FILE", "SVC_CHAINABUSE_KEY", "SVC_CHAINABUSE_URL", "SVC_EXPLORER_URL", "SVC_EXPLORER_KEY", "SVC_IPQS_KEY", "SVC_IPQS_URL",
];

/** The environment variable holding a provider's key, if it needs one. */
export function providerKeyVariable(name: ProviderName): string | null {
  const k = PROVIDER_KEYS[name];
  return k === null ? null : (KEY_VARS[k] ?? null);
}

/**
 * The providers' settings from the environment, for every process that screens (API, CLI,
 * worker): `problems` name each bad variable (`  NAME: why`), for the caller's config error.
 */
export function providerSettingsFromEnv(env: Readonly<Record<string, string | undefined>>, defaults: { rdapBootstrapPath?: string | undefined; attemptTimeoutMs?: number } = {}): { settings: ProviderSettings; problems: string[] } {
  const problems: string[] = [];
  const get = (name: string): string | undefined => {
    const v = env[name]?.trim();
    return v === undefined || v === "" ? undefined : v;
  };
  const url = (name: string): string | undefined => {
    const v = get(name);
    if (v === undefined) return undefined;
    try {
      const u = new URL(v);
      if (u.protocol === "http:" || u.protocol === "https:") return v;
    } catch {
      // reported below
    }
    problems.push(`  ${name}: must be an http(s) URL`);
    return undefined;
  };
  const listed = [...new Set((get("SVC_PROVIDERS") ?? "").split(",").map((p) => p.trim().toLowerCase()).filter((p) => p.length > 0))];
  const unknown = listed.filter((p) => !(PROVIDER_NAMES as readonly string[]).includes(p));
  if (unknown.length > 0) problems.push(`  SVC_PROVIDERS: lists an unknown provider (${unknown.join(", ")}; known: ${PROVIDER_NAMES.join(", ")})`);
  const enabled = listed.filter((p): p is ProviderName => (PROVIDER_NAMES as readonly string[]).includes(p));
  for (const p of enabled) {
    const variable = providerKeyVariable(p);
    if (variable !== null && get(variable) === undefined) problems.push(`  ${variable}: required when SVC_PROVIDERS lists ${p}`);
  }
  for (const name of ["SVC_IP_ASN_FILE", "SVC_HOSTING_ASN_FILE"]) {
    const path = get(name);
    if (path !== undefined && enabled.includes("ip-asn") && !existsSync(path)) problems.push(`  ${name}: no such file (${path})`);
  }
  const settings: ProviderSettings = {
    enabled,
    rdapUrl: url("SVC_RDAP_URL"),
    rdapBootstrapPath: get("SVC_RDAP_BOOTSTRAP") ?? defaults.rdapBootstrapPath,
    dnsServers: (get("SVC_DNS_SERVERS") ?? "").split(",").map((s) => s.trim()).filter((s) => s.length > 0),
    safeBrowsingKey: get("SVC_SAFE_BROWSING_KEY"),
    safeBrowsingUrl: url("SVC_SAFE_BROWSING_URL"),
    urlhausKey: get("SVC_URLHAUS_KEY"),
    urlhausUrl: url("SVC_URLHAUS_URL"),
    abuseIpdbKey: get("SVC_ABUSEIPDB_KEY"),
    abuseIpdbUrl: url("SVC_ABUSEIPDB_URL"),
    torExitsUrl: url("SVC_TOR_EXITS_URL"),
    ipAsnFile: get("SVC_IP_ASN_FILE"),
    hostingAsnFile: get("SVC_HOSTING_ASN_FILE"),
    chainabuseKey: get("SVC_CHAINABUSE_KEY"),
    chainabuseUrl: url("SVC_CHAINABUSE_URL"),
    explorerUrl: url("SVC_EXPLORER_URL"),
    explorerKey: get("SVC_EXPLORER_KEY"),
    ipqsKey: get("SVC_IPQS_KEY"),
    ipqsUrl: url("SVC_IPQS_URL"),
    ...(defaults.attemptTimeoutMs !== undefined ? { resilience: { attemptTimeoutMs: defaults.attemptTimeoutMs } } : {}),
  };
  return { settings, problems };
}
