import dgram from "node:dgram";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { VerdictSchema } from "@svc/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "@svc/runtime";
import { startTestApi, type TestApi } from "./test-support.js";

const engines = (["pglite", "postgres"] as const).filter((e) => e === "pglite" || process.env.TEST_DATABASE_URL);

const DAY_MS = 86_400_000;
const SB_KEY = "sb-key-of-the-provider";
const ABUSE_KEY = "abuseipdb-key-of-the-provider";
const URLHAUS_KEY = "urlhaus-key-of-the-provider";

interface Seen { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }

/** One fake per provider on 127.0.0.1, speaking each one's wire format; every request is recorded. */
function fakeProviders(): { server: http.Server; seen: Seen[] } {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      const url = new URL(req.url ?? "/", "http://x");
      const json = (status: number, v: unknown, type = "application/json"): void => void res.writeHead(status, { "content-type": type }).end(JSON.stringify(v));
      // RDAP (RFC 9083)
      const rdap = /^\/rdap\/domain\/(.+)$/.exec(url.pathname);
      if (rdap) {
        const name = decodeURIComponent(rdap[1] as string);
        const ages: Record<string, number> = { "fresh-harbor.com": 3, "quiet-harbor.com": 4000 };
        const age = ages[name];
        if (age === undefined) return json(404, { errorCode: 404, title: "Not Found" }, "application/rdap+json");
        return json(200, {
          objectClassName: "domain", ldhName: name.toUpperCase(), rdapConformance: ["rdap_level_0"],
          status: ["client transfer prohibited"],
          events: [{ eventAction: "registration", eventDate: new Date(Date.now() - age * DAY_MS).toISOString() }, { eventAction: "expiration", eventDate: "2030-01-01T00:00:00Z" }],
          entities: [{ objectClassName: "entity", roles: ["registrar"], vcardArray: ["vcard", [["version", {}, "text", "4.0"], ["fn", {}, "text", "Example Registrar, Inc."]]] }],
        }, "application/rdap+json");
      }
      if (url.pathname === "/sb/v4/threatMatches:find") {
        const asked = (JSON.parse(body) as { threatInfo: { threatEntries: { url: string }[] } }).threatInfo.threatEntries[0]?.url ?? "";
        if (asked.includes("evil-harbor.com")) return json(200, { matches: [{ threatType: "SOCIAL_ENGINEERING", platformType: "ANY_PLATFORM", threatEntryType: "URL", threat: { url: asked }, cacheDuration: "300s" }] });
        return json(200, {});
      }
      if (url.pathname === "/urlhaus/v1/host/" || url.pathname === "/urlhaus/v1/url/") return json(200, { query_status: "no_results" });
      if (url.pathname === "/abuse/api/v2/check") {
        const ip = url.searchParams.get("ipAddress");
        return json(200, { data: { ipAddress: ip, isPublic: true, ipVersion: 4, isWhitelisted: false, abuseConfidenceScore: ip === "203.0.113.9" ? 100 : 0, countryCode: "NL", usageType: "Data Center/Web Hosting/Transit", isp: "Example", domain: "example.net", hostnames: [], isTor: false, totalReports: ip === "203.0.113.9" ? 412 : 0, numDistinctUsers: 57, lastReportedAt: "2026-11-25T10:00:00+00:00" } });
      }
      res.writeHead(404).end();
    });
  });
  return { server, seen };
}

const listen = async (s: http.Server): Promise<string> => {
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
};
const shut = async (s: http.Server): Promise<void> => {
  s.closeAllConnections();
  await new Promise((r) => s.close(r));
};

let fake: ReturnType<typeof fakeProviders>;
let base = "";
/** Accepts connections and never answers. */
let hanging: http.Server;
let hangingBase = "";
/** A UDP port that takes DNS queries and never answers. */
let silentDns: dgram.Socket;
let silentDnsAddr = "";
beforeAll(async () => {
  fake = fakeProviders();
  base = await listen(fake.server);
  hanging = http.createServer(() => undefined);
  hangingBase = await listen(hanging);
  silentDns = dgram.createSocket("udp4");
  await new Promise<void>((r) => silentDns.bind(0, "127.0.0.1", r));
  silentDnsAddr = `127.0.0.1:${silentDns.address().port}`;
});
afterAll(async () => {
  await shut(fake.server);
  await shut(hanging);
  silentDns.close();
});

const screenOn = (api: TestApi, key: string) => async (value: string) => {
  const res = await api.app.request("/v1/screen", { method: "POST", headers: { "content-type": "application/json", "x-api-key": key }, body: JSON.stringify({ entity_value: value }) });
  expect(res.status, value).toBe(200);
  return VerdictSchema.parse(await res.json());
};

describe.each(engines)("outside reputation providers through the API on %s", (engine) => {
  let plain: TestApi;
  let api: TestApi;
  let key = "";
  let accountId = "";
  beforeAll(async () => {
    plain = await startTestApi(engine);
    api = await startTestApi(engine, {
      SVC_PROVIDERS: "rdap,safe-browsing,urlhaus,abuseipdb",
      SVC_RDAP_URL: `${base}/rdap/`,
      SVC_SAFE_BROWSING_KEY: SB_KEY, SVC_SAFE_BROWSING_URL: `${base}/sb`,
      SVC_URLHAUS_KEY: URLHAUS_KEY, SVC_URLHAUS_URL: `${base}/urlhaus`,
      SVC_ABUSEIPDB_KEY: ABUSE_KEY, SVC_ABUSEIPDB_URL: `${base}/abuse`,
    });
    ({ key, accountId } = await api.account("pro"));
  }, 120_000);
  afterAll(async () => {
    await plain?.close();
    await api?.close();
  });

  it("a domain registered 3 days ago is no longer low with low confidence; an old one is not lowered", async () => {
    const before = await screenOn(plain, (await plain.account("pro")).key)("fresh-harbor.com");
    expect([before.risk_level, before.confidence]).toEqual(["low", "low"]);

    const fresh = await screenOn(api, key)("fresh-harbor.com");
    expect(fresh.risk_level === "low" && fresh.confidence === "low").toBe(false);
    expect(fresh.risk_score).toBeGreaterThanOrEqual(30);
    expect(fresh.signals.find((s) => s.code === "reputation.domain_new")).toMatchObject({ source: { name: "rdap" }, evidence: { age_days: 3 } });
    expect(fresh.coverage.evaluated).toContain("reputation");
    expect(fresh.coverage.unavailable).toEqual([]);

    const old = await screenOn(api, key)("quiet-harbor.com");
    expect(old.risk_level).toBe("low");
    expect(old.signals.map((s) => s.code)).not.toContain("reputation.domain_new");
    const plainOld = await screenOn(plain, (await plain.account("pro")).key)("quiet-harbor.com");
    expect(old.risk_score).toBeGreaterThanOrEqual(plainOld.risk_score);
  });

  it("Safe Browsing and AbuseIPDB matches raise the verdict; answers are cached in the database (positive and negative)", async () => {
    const listed = await screenOn(api, key)("https://evil-harbor.com/login");
    expect(["high", "critical"]).toContain(listed.risk_level);
    expect(listed.signals.find((s) => s.code === "reputation.url_listed")?.source.name).toBe("safe-browsing");
    const ip = await screenOn(api, key)("203.0.113.9");
    expect(ip.signals.find((s) => s.code === "reputation.ip_abuse_reports")).toMatchObject({ source: { name: "abuseipdb" }, evidence: { abuse_confidence: 100 } });
    expect(ip.risk_level).not.toBe("low");

    const before = fake.seen.length;
    await screenOn(api, key)("https://evil-harbor.com/login");
    await screenOn(api, key)("quiet-harbor.com");
    expect(fake.seen.length).toBe(before);
    const rows = (await api.runtime.dataSource.query(`SELECT provider, entity_key, jsonb_array_length(findings) AS n FROM provider_cache ORDER BY provider, entity_key`)) as { provider: string; entity_key: string; n: number }[];
    expect(rows).toContainEqual({ provider: "rdap", entity_key: "domain:fresh-harbor.com", n: 2 });
    expect(rows).toContainEqual({ provider: "urlhaus", entity_key: "domain:quiet-harbor.com", n: 0 });
  });

  it("every outgoing request of a check carries the entity and nothing of ours or of other customers", async () => {
    const other = await api.account("pro");
    await screenOn(api, other.key)("secret-other-customer.com");
    const from = fake.seen.length;
    await screenOn(api, key)("https://sent-only-this.com/path?q=1");
    const requests = fake.seen.slice(from);
    expect(requests.length).toBeGreaterThanOrEqual(3);
    for (const r of requests) {
      const all = `${r.method} ${r.url} ${JSON.stringify(r.headers)} ${r.body}`;
      for (const secret of [key, accountId, other.key, other.accountId, "secret-other-customer"]) expect(all).not.toContain(secret);
      expect(Object.keys(r.headers).filter((h) => h.startsWith("x-"))).toEqual([]);
      // What each request asks about is the entity (its URL, or its registered domain).
      const u = new URL(r.url, "http://x");
      const asked = u.pathname.startsWith("/rdap/") ? decodeURIComponent(u.pathname.slice("/rdap/domain/".length))
        : u.pathname.startsWith("/sb/") ? (JSON.parse(r.body) as { threatInfo: { threatEntries: { url: string }[] } }).threatInfo.threatEntries.map((e) => e.url).join(" ")
        : u.pathname.startsWith("/urlhaus/") ? [...new URLSearchParams(r.body).values()].join(" ")
        : "";
      expect(["sent-only-this.com", "https://sent-only-this.com/path?q=1"]).toContain(asked);
      // The provider's own key goes only to that provider.
      if (!u.pathname.startsWith("/sb/")) expect(all).not.toContain(SB_KEY);
      if (!u.pathname.startsWith("/urlhaus/")) expect(all).not.toContain(URLHAUS_KEY);
      expect(all).not.toContain(ABUSE_KEY);
    }
  });
});

describe("with every provider down", () => {
  let api: TestApi;
  let key = "";
  beforeAll(async () => {
    api = await startTestApi("pglite", {
      SVC_PROVIDERS: "rdap,dns,safe-browsing,urlhaus,abuseipdb",
      SVC_RDAP_URL: `${hangingBase}/rdap/`,
      SVC_DNS_SERVERS: silentDnsAddr,
      SVC_SAFE_BROWSING_KEY: SB_KEY, SVC_SAFE_BROWSING_URL: hangingBase,
      SVC_URLHAUS_KEY: URLHAUS_KEY, SVC_URLHAUS_URL: "http://127.0.0.1:1",
      SVC_ABUSEIPDB_KEY: ABUSE_KEY, SVC_ABUSEIPDB_URL: hangingBase,
      SVC_SOURCE_TIMEOUT_MS: "300",
    });
    ({ key } = await api.account("pro"));
  }, 120_000);
  afterAll(async () => api?.close());

  it("verdicts come back within the deadline, naming every provider in coverage.unavailable, never read as clean", async () => {
    const screen = screenOn(api, key);
    const started = performance.now();
    const [domain, email, ip] = await Promise.all([screen("fresh-harbor.com"), screen("someone@fresh-harbor.com"), screen("203.0.113.9")]);
    const ms = performance.now() - started;
    // The deadline is 300 ms (its sweep may fire up to 20 ms late); the rest is the check itself.
    expect(ms).toBeLessThan(1_000);
    expect(domain.coverage.unavailable.map((u) => u.source).sort()).toEqual(["dns", "rdap", "safe-browsing", "urlhaus"]);
    expect(email.coverage.unavailable.map((u) => u.source).sort()).toEqual(["dns", "rdap"]);
    expect(ip.coverage.unavailable.map((u) => u.source)).toEqual(["abuseipdb"]);
    for (const v of [domain, email, ip]) {
      expect(v.signals.filter((s) => s.code === "coverage.source_unavailable").length).toBe(v.coverage.unavailable.length);
      expect(v.coverage.evaluated).not.toContain("reputation");
      expect(v.confidence).toBe("low");
    }
  });
});

describe("provider settings", () => {
  it("are off by default; a provider listed without its key, or an unknown one, stops the start naming the variable", () => {
    expect(loadConfig({}).providers.enabled).toEqual([]);
    expect(loadConfig({ SVC_PROVIDERS: " RDAP , dns,rdap" }).providers.enabled).toEqual(["rdap", "dns"]);
    expect(() => loadConfig({ SVC_PROVIDERS: "safe-browsing" })).toThrow(/SVC_SAFE_BROWSING_KEY: required when SVC_PROVIDERS lists safe-browsing/);
    expect(() => loadConfig({ SVC_PROVIDERS: "rdap,whois" })).toThrow(ConfigError);
    expect(() => loadConfig({ SVC_PROVIDERS: "rdap,whois" })).toThrow(/SVC_PROVIDERS: lists an unknown provider/);
    expect(() => loadConfig({ SVC_RDAP_URL: "ftp://x" })).toThrow(/SVC_RDAP_URL/);
  });
});
