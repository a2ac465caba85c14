import { describe, expect, it } from "vitest";
import { loadWorkerConfig } from "@svc/runtime";

const BASE = { DATABASE_URL: "postgres://x@127.0.0.1/db", SVC_AUDIT_KEY: "k".repeat(32) };

describe("the worker's provider settings", () => {
  it("are read as the API reads them: off by default, keys required, bad values named", () => {
    expect(loadWorkerConfig(BASE).providers.enabled).toEqual([]);
    const c = loadWorkerConfig({ ...BASE, SVC_PROVIDERS: "rdap,abuseipdb", SVC_ABUSEIPDB_KEY: "a", SVC_RDAP_URL: "http://127.0.0.1:9/rdap/", SVC_SOURCE_TIMEOUT_MS: "500" });
    expect(c.providers).toMatchObject({ enabled: ["rdap", "abuseipdb"], abuseIpdbKey: "a", rdapUrl: "http://127.0.0.1:9/rdap/", resilience: { attemptTimeoutMs: 500 } });
    expect(c.SVC_SOURCE_TIMEOUT_MS).toBe(500);
    const w = loadWorkerConfig({ ...BASE, SVC_PROVIDERS: "tor-exits,chainabuse,explorer,ipqualityscore", SVC_CHAINABUSE_KEY: "c", SVC_EXPLORER_URL: "https://eth.blockscout.com/api", SVC_IPQS_KEY: "i" });
    expect(w.providers).toMatchObject({ enabled: ["tor-exits", "chainabuse", "explorer", "ipqualityscore"], chainabuseKey: "c", explorerUrl: "https://eth.blockscout.com/api", ipqsKey: "i" });
    expect(() => loadWorkerConfig({ ...BASE, SVC_PROVIDERS: "explorer,ip-asn" })).toThrow(/SVC_IP_ASN_FILE: required when SVC_PROVIDERS lists ip-asn\n {2}SVC_EXPLORER_URL: required when SVC_PROVIDERS lists explorer|SVC_EXPLORER_URL: required when SVC_PROVIDERS lists explorer\n {2}SVC_IP_ASN_FILE: required/);
    expect(() => loadWorkerConfig({ ...BASE, SVC_PROVIDERS: "urlhaus", SVC_RDAP_URL: "nope" })).toThrow(/SVC_URLHAUS_KEY: required when SVC_PROVIDERS lists urlhaus\n {2}SVC_RDAP_URL: must be an http\(s\) URL/);
  });
});
