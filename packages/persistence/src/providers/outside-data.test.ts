import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import type { Clock } from "@svc/core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  AsnTable, buildReputationProviders, chainabuseAdapter, DEFAULT_RESILIENCE, explorerAdapter, ipqsPhoneAdapter, MemoryProviderCache, parseAsnList,
  parseTorExitAddresses, providerSettingsFromEnv, ResilientProvider, torExitAdapter, type ProviderAdapter, type ResilienceOptions,
} from "./index.js";

class ManualClock implements Clock {
  constructor(private ms: number) {}
  now(): Date {
    return new Date(this.ms);
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}

interface Seen { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }
type Handler = (req: http.IncomingMessage, res: http.ServerResponse, url: URL) => void;
const routes = new Map<string, Handler>();
const seen: Seen[] = [];
let server: http.Server;
let base = "";
beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      const url = new URL(req.url ?? "/", "http://x");
      const route = [...routes.entries()].find(([prefix]) => url.pathname.startsWith(prefix));
      if (route) route[1](req, res, url);
      else res.writeHead(404).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});
beforeEach(() => {
  routes.clear();
  seen.length = 0;
});

const json = (res: http.ServerResponse, status: number, v: unknown, headers: Record<string, string> = {}): void =>
  void res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(v));
const FAST: ResilienceOptions = { ...DEFAULT_RESILIENCE, attemptTimeoutMs: 2_000, retries: 2, backoffMs: 5, breakerFailures: 50 };
const never = new AbortController().signal;
const NOW = Date.parse("2026-11-26T06:00:00Z");
const DAY = 86_400_000;
const wrap = (a: ProviderAdapter, clock: Clock = new ManualClock(NOW), opts: Partial<ResilienceOptions> = {}): ResilientProvider => new ResilientProvider(a, new MemoryProviderCache(), clock, { ...FAST, ...opts });

const EVM = "0x52908400098527886e0f7030069857d2e4169ee7";
const EVM_FRESH = "0x8617e340b3d01fa5f11f306f4090fd50e238070d";
const EVM_UNUSED = "0xde709f2102306220921060314715629080e2fb77";
const BTC = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq";

/** The common failure modes of one HTTP provider: each is a rejection (unavailable), never an empty answer. */
async function failureModes(make: () => ResilientProvider, route: string, type: string, value: string, status401: unknown): Promise<void> {
  routes.set(route, (_q, res) => json(res, 401, status401));
  await expect(make().check(type, value, never)).rejects.toThrow(/HTTP 401/);
  expect(seen.length).toBe(1); // a 4xx is not retried
  seen.length = 0;
  let n = 0;
  const good = routes.get(`${route}#ok`) as Handler;
  routes.set(route, (q, res, u) => (++n === 1 ? json(res, 429, { error: "Too Many Requests" }, { "retry-after": "0" }) : good(q, res, u)));
  await make().check(type, value, never);
  expect(n).toBe(2); // the 429 was tried again after its Retry-After
  routes.set(route, () => undefined); // never answers
  const t = performance.now();
  await expect(make().check(type, value, AbortSignal.timeout(150))).rejects.toThrow();
  expect(performance.now() - t).toBeLessThan(1_500);
  routes.set(route, (_q, res) => void res.writeHead(200, { "content-type": "application/json" }).end("<html>gateway</html>"));
  await expect(make().check(type, value, never)).rejects.toThrow(/not JSON/);
  routes.set(route, (_q, res) => json(res, 200, { unexpected: true }));
  await expect(make().check(type, value, never)).rejects.toThrow(/without/);
}

describe("Chainabuse reports", () => {
  const reportsOk: Handler = (_q, res, url) => {
    const address = url.searchParams.get("address");
    if (address === EVM) {
      return json(res, 200, {
        reports: [
          { id: "r1", scamCategory: "PHISHING", createdAt: "2026-11-20T10:00:00.000Z", checked: true, trusted: false, addresses: [{ address: EVM, chain: "ETH" }] },
          { id: "r2", scamCategory: "PIGBUTCHERING", createdAt: "2026-10-01T10:00:00.000Z", checked: false, trusted: false },
          { id: "r3", scamCategory: "PHISHING", createdAt: "2026-09-01T10:00:00.000Z", checked: false, trusted: false },
        ],
        count: 3,
      });
    }
    if (address === BTC) return json(res, 200, [{ id: "b1", scamCategory: "SEXTORTION", createdAt: "2026-08-01T00:00:00Z" }]);
    json(res, 200, { reports: [], count: 0 });
  };
  const make = (): ResilientProvider => wrap(chainabuseAdapter({ key: "ca-key", baseUrl: `${base}/v0` }));

  it("reads reports into one finding with counts, categories and provenance; none is nothing known", async () => {
    routes.set("/v0/reports", reportsOk);
    const [f] = await make().check("wallet", EVM, never);
    expect(f).toMatchObject({
      code: "reputation.wallet_reports", source: { name: "chainabuse" }, strength: 1, observed_at: "2026-11-20T10:00:00.000Z",
      evidence: { reports: 3, categories: "phishing,pigbutchering", vetted: 1 },
    });
    // One unvetted report is weaker than a checked one; the bare-array form reads the same.
    expect((await make().check("wallet", BTC, never))[0]).toMatchObject({ evidence: { reports: 1, categories: "sextortion", vetted: 0 }, strength: 0.5 });
    expect(await make().check("wallet", EVM_UNUSED, never)).toEqual([]);
    const r = seen[0] as Seen;
    expect(r.headers.authorization).toBe(`Basic ${Buffer.from("ca-key:ca-key").toString("base64")}`);
    expect(Object.fromEntries(new URL(r.url, "http://x").searchParams)).toEqual({ address: EVM, page: "1", perPage: "50" });
  });

  it("401, 429 with Retry-After, a slow answer and a malformed body are failures", async () => {
    routes.set("/v0/reports#ok", reportsOk);
    await failureModes(make, "/v0/reports", "wallet", EVM, { reason: "Unauthorized" });
  });
});

describe("a chain explorer (Etherscan account API)", () => {
  const txlistOk: Handler = (_q, res, url) => {
    const address = url.searchParams.get("address");
    const first = (daysAgo: number) => ({ status: "1", message: "OK", result: [{ blockNumber: "21000000", timeStamp: String(Math.floor((NOW - daysAgo * DAY) / 1000)), hash: "0xabc", from: address, to: "0x0000000000000000000000000000000000000001", value: "0", isError: "0" }] });
    if (address === EVM) return json(res, 200, first(900));
    if (address === EVM_FRESH) return json(res, 200, first(3));
    if (url.searchParams.get("apikey") === "bad") return json(res, 200, { status: "0", message: "NOTOK", result: "Invalid API Key" });
    json(res, 200, { status: "0", message: "No transactions found", result: [] });
  };
  const make = (key = "ex-key"): ResilientProvider => wrap(explorerAdapter({ baseUrl: `${base}/v2/api?chainid=1`, key, clock: new ManualClock(NOW) }));

  it("first seen N days ago, new addresses add a little, unused ones say so; other chains are not asked", async () => {
    routes.set("/v2/api", txlistOk);
    const old = await make().check("wallet", EVM, never);
    expect(old.map((f) => f.code)).toEqual(["reputation.wallet_first_seen"]);
    expect(old[0]?.evidence).toMatchObject({ age_days: 900, first_tx: "0xabc", explorer: expect.stringContaining("chain-1") as unknown });
    const fresh = await make().check("wallet", EVM_FRESH, never);
    expect(fresh.map((f) => [f.code, f.strength ?? null])).toEqual([["reputation.wallet_first_seen", null], ["reputation.wallet_new", 1]]);
    expect((await make().check("wallet", EVM_UNUSED, never)).map((f) => f.code)).toEqual(["reputation.wallet_no_transactions"]);
    const q = Object.fromEntries(new URL((seen[0] as Seen).url, "http://x").searchParams);
    expect(q).toEqual({ chainid: "1", module: "account", action: "txlist", address: EVM, startblock: "0", endblock: "99999999", page: "1", offset: "1", sort: "asc", apikey: "ex-key" });
    const asked = seen.length;
    expect(await make().check("wallet", BTC, never)).toEqual([]);
    expect(seen.length).toBe(asked);
  });

  it("an error said with HTTP 200 (NOTOK) fails; its rate limit is retried", async () => {
    routes.set("/v2/api", txlistOk);
    await expect(make("bad").check("wallet", EVM_UNUSED, never)).rejects.toThrow(/Invalid API Key/);
    let n = 0;
    routes.set("/v2/api", (q, res, u) => (++n === 1 ? json(res, 200, { status: "0", message: "NOTOK", result: "Max rate limit reached" }) : txlistOk(q, res, u)));
    await expect(make().check("wallet", EVM, never)).resolves.toHaveLength(1);
    expect(n).toBe(2);
  });

  it("HTTP errors, 429, slow answers and malformed bodies are failures", async () => {
    routes.set("/v2/api#ok", txlistOk);
    await failureModes(make, "/v2/api", "wallet", EVM, { status: "0", message: "NOTOK", result: "Unauthorized" });
  });
});

describe("IPQualityScore phone validation", () => {
  const phoneOk: Handler = (_q, res, url) => {
    const number = decodeURIComponent(url.pathname.split("/").pop() ?? "");
    const base = { success: true, message: "Success.", formatted: `+${number}`, valid: true, fraud_score: 0, recent_abuse: false, VOIP: false, prepaid: false, risky: false, active: true, carrier: "Vodafone", line_type: "Wireless", country: "GB", region: "London", dialing_code: 44, request_id: "abc" };
    if (number === "442079460958") return json(res, 200, { ...base, fraud_score: 92, recent_abuse: true, VOIP: true, active: false, active_status: "Disconnected", carrier: "Example VoIP", line_type: "VOIP", country: "NG", region: "Lagos" });
    if (number === "447911123456") return json(res, 200, base); // libphonenumber says GG: same plan, not a mismatch
    json(res, 200, { ...base, country: "FR", carrier: "Orange", region: "N/A" });
  };
  const make = (): ResilientProvider => wrap(ipqsPhoneAdapter({ key: "ipqs-key", baseUrl: base }));

  it("reads fraud score, VoIP, an inactive line and a carrier in another country's plan", async () => {
    routes.set("/api/json/phone/", phoneOk);
    const risky = await make().check("phone", "+442079460958", never);
    expect(risky.map((f) => f.code)).toEqual(["reputation.phone_line", "reputation.phone_risky", "reputation.phone_voip", "reputation.phone_inactive", "reputation.phone_region_mismatch"]);
    expect(risky[1]?.strength).toBe(0.92);
    expect(risky[4]?.evidence).toEqual({ plan_country: "GB", carrier_country: "NG", calling_code: "44" });
    expect((seen[0] as Seen).url).toBe("/api/json/phone/ipqs-key/442079460958?strictness=0");
    expect((await make().check("phone", "+447911123456", never)).map((f) => f.code)).toEqual(["reputation.phone_line"]);
    const fine = await make().check("phone", "+33612345678", never);
    expect(fine.map((f) => f.code)).toEqual(["reputation.phone_line"]);
    expect(fine[0]?.evidence).toMatchObject({ carrier: "Orange", region: null, fraud_score: 0 });
  });

  it("success: false (a bad key, no credits) fails; so do HTTP errors, 429, slow answers and malformed bodies", async () => {
    routes.set("/api/json/phone/", (_q, res) => json(res, 200, { success: false, message: "Invalid or unauthorized key. Please check the API key and try again.", request_id: "x" }));
    await expect(make().check("phone", "+33612345678", never)).rejects.toThrow(/refused: Invalid or unauthorized key/);
    routes.set("/api/json/phone/#ok", phoneOk);
    seen.length = 0;
    await failureModes(make, "/api/json/phone/", "phone", "+33612345678", { success: false, message: "Unauthorized" });
  });
});

const EXIT_LIST = [
  "ExitNode 0011BD2485AD45D984EC4159C88FC066E5E3300E",
  "Published 2026-11-25 21:31:49",
  "LastStatus 2026-11-26 01:00:00",
  "ExitAddress 198.51.100.23 2026-11-26 01:06:27",
  "ExitNode 0111BA9B604669E636FFD5B503F382A4B7AD6E80",
  "Published 2026-11-25 23:11:01",
  "LastStatus 2026-11-26 04:00:00",
  "ExitAddress 203.0.113.77 2026-11-26 04:12:09",
  "ExitAddress 203.0.113.78 2026-11-25 19:00:00",
  "",
].join("\n");

describe("the Tor exit list", () => {
  it("parses the Tor Project's exit-addresses format; anything else is refused", () => {
    const l = parseTorExitAddresses(EXIT_LIST);
    expect([...l.addresses].sort()).toEqual(["198.51.100.23", "203.0.113.77", "203.0.113.78"]);
    expect([l.relays, l.asOf]).toEqual([2, "2026-11-26T04:12:09Z"]);
    expect(() => parseTorExitAddresses("<html><body>Service unavailable</body></html>")).toThrow(/no ExitNode/);
  });

  it("is downloaded once, matched in memory (no request carries the entity), refreshed in the background", async () => {
    let list = EXIT_LIST;
    routes.set("/exit-addresses", (_q, res) => void res.writeHead(200, { "content-type": "text/plain" }).end(list));
    const clock = new ManualClock(NOW);
    const p = wrap(torExitAdapter({ url: `${base}/exit-addresses`, clock, refreshMs: 3_600_000 }), clock);
    expect(await p.check("ip_address", "203.0.113.77", never)).toMatchObject([{ code: "reputation.ip_tor_exit", source: { name: "tor-exits", version: "2026-11-26T04:12:09Z" } }]);
    expect(await p.check("ip_address", "192.0.2.1", never)).toEqual([]);
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual(["GET /exit-addresses"]);
    list = EXIT_LIST.replace("203.0.113.77", "203.0.113.99");
    clock.advance(2 * 3_600_000);
    // The old list answers at once while the new one is fetched.
    expect(await p.check("ip_address", "203.0.113.99", never)).toEqual([]);
    await new Promise((r) => setTimeout(r, 100));
    expect(await p.check("ip_address", "203.0.113.99", never)).toHaveLength(1);
    expect(seen).toHaveLength(2);
  });

  it("unreachable, an error page or too old: unavailable, never 'not an exit'", async () => {
    const clock = new ManualClock(NOW);
    const down = wrap(torExitAdapter({ url: "http://127.0.0.1:1/exit-addresses", clock }), clock);
    await expect(down.check("ip_address", "203.0.113.77", never)).rejects.toThrow(/unreachable/);
    routes.set("/exit-addresses", (_q, res) => void res.writeHead(200, { "content-type": "text/html" }).end("<html>captcha</html>"));
    await expect(wrap(torExitAdapter({ url: `${base}/exit-addresses`, clock }), clock).check("ip_address", "203.0.113.77", never)).rejects.toThrow(/no ExitNode/);
    routes.set("/exit-addresses", () => undefined); // hangs: the check's deadline still holds
    const t = performance.now();
    await expect(wrap(torExitAdapter({ url: `${base}/exit-addresses`, clock }), clock).check("ip_address", "203.0.113.77", AbortSignal.timeout(150))).rejects.toThrow(/in time/);
    expect(performance.now() - t).toBeLessThan(1_500);
    routes.set("/exit-addresses", (_q, res) => void res.writeHead(200).end(EXIT_LIST));
    const aging = torExitAdapter({ url: `${base}/exit-addresses`, clock, maxAgeMs: 3_600_000, refreshMs: 600_000 });
    const p = wrap(aging, clock);
    await p.check("ip_address", "203.0.113.77", never);
    routes.set("/exit-addresses", (_q, res) => void res.writeHead(503).end());
    clock.advance(2 * 3_600_000);
    await expect(p.check("ip_address", "203.0.113.77", never)).rejects.toThrow(/HTTP 503/);
  });
});

const IPTOASN = [
  "1.0.0.0\t1.0.0.255\t13335\tUS\tCLOUDFLARENET",
  "1.0.1.0\t1.0.3.255\t0\tNone\tNot routed",
  "203.0.113.0\t203.0.113.255\t64500\tNL\tEXAMPLE-HOSTING Example Hosting B.V.",
  "198.51.100.0\t198.51.100.127\t64501\tDE\tEXAMPLE-ACCESS Example Broadband",
  "2001:db8::\t2001:db8::ffff\t64500\tNL\tEXAMPLE-HOSTING",
  "",
].join("\n");

describe("AS numbers and hosting networks from fed files", () => {
  let dir = "";
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "svc-asn-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("reads the iptoasn TSV (plain or gzipped) and a hosting AS list; answers from memory", async () => {
    writeFileSync(join(dir, "ip2asn-v4.tsv.gz"), gzipSync(IPTOASN));
    writeFileSync(join(dir, "hosting.csv"), 'ASN,Entity\n"AS64500","Example Hosting"\n# comment\n16509 Amazon\n');
    expect([...parseAsnList('ASN,Entity\n"AS64500","Example Hosting"\n16509 Amazon\n')]).toEqual([[64500, "Example Hosting"], [16509, "Amazon"]]);
    const table = AsnTable.load(join(dir, "ip2asn-v4.tsv.gz"));
    expect(table.ranges).toBe(3);
    expect(table.lookup("1.0.2.9")).toBeNull(); // not routed
    expect(table.lookup("198.51.100.200")).toBeNull(); // outside every range
    const env = { SVC_PROVIDERS: "ip-asn", SVC_IP_ASN_FILE: join(dir, "ip2asn-v4.tsv.gz"), SVC_HOSTING_ASN_FILE: join(dir, "hosting.csv") };
    const { settings, problems } = providerSettingsFromEnv(env);
    expect(problems).toEqual([]);
    const [p] = buildReputationProviders(settings, { clock: new ManualClock(NOW), fetch: () => Promise.reject(new Error("no request expected")) });
    const hosted = await (p as ResilientProvider).check("ip_address", "203.0.113.9", never);
    expect(hosted.map((f) => f.code)).toEqual(["reputation.ip_asn", "reputation.ip_hosting"]);
    expect(hosted[0]?.evidence).toEqual({ asn: 64500, as_name: "EXAMPLE-HOSTING Example Hosting B.V.", country: "NL", range: "203.0.113.0-203.0.113.255" });
    expect((await (p as ResilientProvider).check("ip_address", "198.51.100.5", never)).map((f) => f.code)).toEqual(["reputation.ip_asn"]);
  });

  it("a missing or malformed file stops the start naming the variable", () => {
    expect(providerSettingsFromEnv({ SVC_PROVIDERS: "ip-asn" }).problems).toEqual(["  SVC_IP_ASN_FILE: required when SVC_PROVIDERS lists ip-asn"]);
    expect(providerSettingsFromEnv({ SVC_PROVIDERS: "ip-asn", SVC_IP_ASN_FILE: join(dir, "nope.tsv") }).problems).toEqual([`  SVC_IP_ASN_FILE: no such file (${join(dir, "nope.tsv")})`]);
    writeFileSync(join(dir, "bad.tsv"), "<html>not a table</html>\n");
    const { settings } = providerSettingsFromEnv({ SVC_PROVIDERS: "ip-asn", SVC_IP_ASN_FILE: join(dir, "bad.tsv") });
    expect(() => buildReputationProviders(settings, { clock: new ManualClock(NOW) })).toThrow(/SVC_IP_ASN_FILE .*not an iptoasn TSV/);
  });
});

describe("what leaves for an outside service", () => {
  it("each request carries the entity and that provider's own key, nothing else", async () => {
    routes.set("/v0/reports", (_q, res) => json(res, 200, { reports: [], count: 0 }));
    routes.set("/v2/api", (_q, res) => json(res, 200, { status: "0", message: "No transactions found", result: [] }));
    routes.set("/api/json/phone/", (_q, res) => json(res, 200, { success: true, fraud_score: 0, valid: true, country: "FR" }));
    const env = {
      SVC_PROVIDERS: "chainabuse,explorer,ipqualityscore",
      SVC_CHAINABUSE_KEY: "k-chainabuse", SVC_CHAINABUSE_URL: `${base}/v0`,
      SVC_EXPLORER_URL: `${base}/v2/api?chainid=1`, SVC_EXPLORER_KEY: "k-explorer",
      SVC_IPQS_KEY: "k-ipqs", SVC_IPQS_URL: base,
    };
    const { settings, problems } = providerSettingsFromEnv(env);
    expect(problems).toEqual([]);
    const providers = buildReputationProviders(settings, { clock: new ManualClock(NOW) });
    for (const [type, value] of [["wallet", EVM], ["phone", "+33612345678"]] as const) {
      for (const p of providers.filter((x) => x.types.includes(type))) await p.check(type, value, never);
    }
    expect(seen).toHaveLength(3);
    for (const r of seen) {
      const all = `${r.method} ${decodeURIComponent(r.url)} ${JSON.stringify(r.headers)} ${r.body}`;
      const path = new URL(r.url, "http://x").pathname;
      const own = path.startsWith("/v0/") ? "k-chainabuse" : path.startsWith("/v2/") ? "k-explorer" : "k-ipqs";
      for (const k of ["k-chainabuse", "k-explorer", "k-ipqs"]) {
        if (k === own) continue;
        expect(all).not.toContain(k);
        expect(all).not.toContain(Buffer.from(`${k}:${k}`).toString("base64"));
      }
      expect(all.includes(EVM) || all.includes("33612345678")).toBe(true);
      expect(r.body).toBe("");
      expect(Object.keys(r.headers).sort()).toEqual(expect.arrayContaining(["accept", "host"]));
      expect(Object.keys(r.headers).filter((h) => !["accept", "host", "authorization", "connection", "accept-encoding", "accept-language", "user-agent", "sec-fetch-mode"].includes(h))).toEqual([]);
    }
  });
});
