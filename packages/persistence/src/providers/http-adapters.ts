import { parseEntity, type Clock, type Finding } from "@svc/core";
import { fetchJson, ProviderError, type ProviderAdapter, type ProviderIo, type ProviderQuery } from "./framework.js";

const trimBase = (u: string): string => (u.endsWith("/") ? u.slice(0, -1) : u);

function malformed(provider: string, what: string): ProviderError {
  return new ProviderError("malformed", `${provider} answered JSON without ${what}`, false);
}

/** A URL to ask about: the URL itself, or `http://<domain>/` for a domain. */
function urlOf(query: ProviderQuery): string {
  return query.type === "url" ? query.value : `http://${query.value}/`;
}

/**
 * Google Safe Browsing v4 Lookup (`threatMatches:find`): one URL per check, the key in the query
 * string as the API requires. A match is a `reputation.url_listed` finding; `{}` is "no match".
 */
export function safeBrowsingAdapter(opts: { key: string; baseUrl?: string | undefined; clock?: Clock }): ProviderAdapter {
  const base = trimBase(opts.baseUrl ?? "https://safebrowsing.googleapis.com");
  const source = { name: "safe-browsing", version: "v4" };
  const find = async (url: string, io: ProviderIo): Promise<{ threatType: string; url: string; cacheSeconds: number | null }[]> => {
    const body = {
      client: { clientId: "svc", clientVersion: "1" },
      threatInfo: {
        threatTypes: ["MALWARE", "SOCIAL_ENGINEERING", "UNWANTED_SOFTWARE", "POTENTIALLY_HARMFUL_APPLICATION"],
        platformTypes: ["ANY_PLATFORM"],
        threatEntryTypes: ["URL"],
        threatEntries: [{ url }],
      },
    };
    const answer = (await fetchJson(io, "safe-browsing", `${base}/v4/threatMatches:find?key=${encodeURIComponent(opts.key)}`, {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
    })) as { matches?: unknown } | null;
    if (answer === null || typeof answer !== "object") throw malformed("safe-browsing", "an object");
    if (answer.matches === undefined) return [];
    if (!Array.isArray(answer.matches)) throw malformed("safe-browsing", "a matches array");
    return (answer.matches as { threatType?: unknown; threat?: { url?: unknown }; cacheDuration?: unknown }[])
      .filter((m) => typeof m?.threatType === "string")
      .map((m) => {
        // cacheDuration is a protobuf Duration in JSON: "300s", "0.5s".
        const d = typeof m.cacheDuration === "string" ? /^(\d+(?:\.\d+)?)s$/.exec(m.cacheDuration) : null;
        return { threatType: m.threatType as string, url: typeof m.threat?.url === "string" ? m.threat.url : url, cacheSeconds: d ? Number(d[1]) : null };
      });
  };
  return {
    name: "safe-browsing",
    types: ["url", "domain"],
    async lookup(query, io) {
      const matches = await find(urlOf(query), io);
      if (matches.length === 0) return [];
      const types = [...new Set(matches.map((m) => m.threatType))].sort();
      const seconds = matches.map((m) => m.cacheSeconds).filter((c): c is number => c !== null);
      // A match holds only for its cacheDuration (the API's terms): the verdict, and our cache, say so.
      const expires = seconds.length > 0 ? new Date((opts.clock?.now().getTime() ?? Date.now()) + Math.min(...seconds) * 1000).toISOString() : null;
      return [{
        code: "reputation.url_listed",
        family: "reputation",
        message: `Google Safe Browsing lists this as ${types.map((t) => t.toLowerCase().replace(/_/g, " ")).join(", ")}`,
        evidence: { list: "safe-browsing", threat_types: types.join(",") },
        source,
        ...(expires ? { expires_at: expires } : {}),
      } satisfies Finding];
    },
    async probe(io) {
      await find("http://example.com/", io);
      return "reachable, key accepted";
    },
  };
}

/**
 * URLhaus (abuse.ch): a URL (`/v1/url/`) or a host (`/v1/host/`); an Auth-Key header. A URL that
 * URLhaus tracks as a malware distribution site is listed; offline ones count less.
 */
export function urlhausAdapter(opts: { key: string; baseUrl?: string | undefined }): ProviderAdapter {
  const base = trimBase(opts.baseUrl ?? "https://urlhaus-api.abuse.ch");
  const source = { name: "urlhaus", version: "v1" };
  const post = async (path: string, form: Record<string, string>, io: ProviderIo): Promise<Record<string, unknown>> => {
    const answer = await fetchJson(io, "urlhaus", `${base}${path}`, {
      method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", "auth-key": opts.key }, body: new URLSearchParams(form).toString(),
    });
    if (answer === null || typeof answer !== "object" || typeof (answer as { query_status?: unknown }).query_status !== "string") throw malformed("urlhaus", "a query_status");
    const status = (answer as { query_status: string }).query_status;
    if (status === "ok" || status === "no_results" || status.startsWith("invalid_")) return answer as Record<string, unknown>;
    throw new ProviderError("http_status", `urlhaus answered query_status "${status.slice(0, 60)}"`, false);
  };
  return {
    name: "urlhaus",
    types: ["url", "domain"],
    async lookup(query, io) {
      if (query.type === "url") {
        const a = await post("/v1/url/", { url: query.value }, io);
        if (a.query_status !== "ok") return [];
        const online = a.url_status === "online";
        return [{
          code: "reputation.url_listed",
          family: "reputation",
          message: `URLhaus tracks this URL as a malware distribution site${online ? " (online)" : " (offline now)"}`,
          evidence: { list: "urlhaus", url_status: typeof a.url_status === "string" ? a.url_status : null, threat: typeof a.threat === "string" ? a.threat : null },
          source,
          strength: online ? 1 : 0.6,
          ...(typeof a.date_added === "string" && !Number.isNaN(Date.parse(a.date_added.replace(" UTC", "Z").replace(" ", "T"))) ? { observed_at: new Date(Date.parse(a.date_added.replace(" UTC", "Z").replace(" ", "T"))).toISOString() } : {}),
        }];
      }
      const host = parseEntity(query.value, { type: "domain" });
      if (!host.ok) return [];
      const a = await post("/v1/host/", { host: host.entity.value }, io);
      if (a.query_status !== "ok") return [];
      const urls = Array.isArray(a.urls) ? (a.urls as { url_status?: unknown }[]) : [];
      if (urls.length === 0) return [];
      const online = urls.filter((u) => u?.url_status === "online").length;
      return [{
        code: "reputation.url_listed",
        family: "reputation",
        message: `URLhaus tracks ${urls.length} malware URL${urls.length === 1 ? "" : "s"} on this host (${online} online)`,
        evidence: { list: "urlhaus", url_count: urls.length, online },
        source,
        strength: online > 0 ? 0.9 : 0.5,
      }];
    },
    async probe(io) {
      await post("/v1/host/", { host: "example.com" }, io);
      return "reachable, key accepted";
    },
  };
}

/**
 * AbuseIPDB `GET /api/v2/check`: its abuse confidence score (0–100) weighs the finding; Tor exits
 * are a separate, lighter fact. Whitelisted addresses and a score of 0 add nothing.
 */
export function abuseIpdbAdapter(opts: { key: string; baseUrl?: string | undefined; maxAgeInDays?: number }): ProviderAdapter {
  const base = trimBase(opts.baseUrl ?? "https://api.abuseipdb.com");
  const source = { name: "abuseipdb", version: "v2" };
  const check = async (ip: string, io: ProviderIo): Promise<Record<string, unknown>> => {
    const url = `${base}/api/v2/check?${new URLSearchParams({ ipAddress: ip, maxAgeInDays: String(opts.maxAgeInDays ?? 90) }).toString()}`;
    const answer = (await fetchJson(io, "abuseipdb", url, { headers: { key: opts.key, accept: "application/json" } })) as { data?: unknown } | null;
    if (answer === null || typeof answer !== "object" || typeof answer.data !== "object" || answer.data === null) throw malformed("abuseipdb", "a data object");
    const data = answer.data as Record<string, unknown>;
    if (typeof data.abuseConfidenceScore !== "number") throw malformed("abuseipdb", "an abuseConfidenceScore");
    return data;
  };
  return {
    name: "abuseipdb",
    types: ["ip_address"],
    async lookup(query, io) {
      const d = await check(query.value, io);
      const findings: Finding[] = [];
      const score = Math.max(0, Math.min(100, d.abuseConfidenceScore as number));
      if (score > 0 && d.isWhitelisted !== true) {
        const reports = typeof d.totalReports === "number" ? d.totalReports : 0;
        findings.push({
          code: "reputation.ip_abuse_reports",
          family: "reputation",
          message: `AbuseIPDB rates abuse from this address at ${score}% confidence (${reports} report${reports === 1 ? "" : "s"}${typeof d.numDistinctUsers === "number" ? ` by ${d.numDistinctUsers} users` : ""})`,
          evidence: { abuse_confidence: score, total_reports: reports, usage_type: typeof d.usageType === "string" ? d.usageType : null, isp: typeof d.isp === "string" ? d.isp : null },
          source,
          strength: score / 100,
          ...(typeof d.lastReportedAt === "string" && !Number.isNaN(Date.parse(d.lastReportedAt)) ? { observed_at: new Date(d.lastReportedAt).toISOString() } : {}),
        });
      }
      if (d.isTor === true) {
        findings.push({ code: "reputation.ip_tor_exit", family: "reputation", message: "AbuseIPDB says this address is a Tor exit node (shared by many people)", evidence: { tor: true }, source });
      }
      return findings;
    },
    async probe(io) {
      await check("127.0.0.1", io);
      return "reachable, key accepted";
    },
  };
}
