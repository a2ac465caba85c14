import dgram from "node:dgram";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Clock, Finding } from "@svc/core";
import type { DataSource } from "typeorm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openDataSource } from "../data-source.js";
import { scratchDatabase, type ScratchDatabase } from "../scratch-database.js";
import {
  abuseIpdbAdapter, DEFAULT_RESILIENCE, dnsAdapter, MemoryProviderCache, RdapBootstrap, rdapAdapter, ResilientProvider, safeBrowsingAdapter,
  TypeOrmProviderCache, urlhausAdapter, type ProviderAdapter, type ResilienceOptions,
} from "./index.js";

const ENGINES = ["pglite", ...(process.env.TEST_DATABASE_URL ? ["postgres"] : [])] as const;

class ManualClock implements Clock {
  constructor(private ms: number) {}
  now(): Date {
    return new Date(this.ms);
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}

type Handler = (req: http.IncomingMessage, body: string, res: http.ServerResponse) => void;
const routes = new Map<string, Handler>();
const hits = new Map<string, number>();
let server: http.Server;
let base = "";
beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      const path = new URL(req.url ?? "/", "http://x").pathname;
      hits.set(path, (hits.get(path) ?? 0) + 1);
      const h = routes.get(path);
      if (h) h(req, body, res);
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
  hits.clear();
});

const json = (res: http.ServerResponse, status: number, v: unknown, headers: Record<string, string> = {}): void =>
  void res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(v));
const FAST: ResilienceOptions = { ...DEFAULT_RESILIENCE, attemptTimeoutMs: 200, retries: 2, backoffMs: 5, breakerFailures: 3, breakerCooldownMs: 60_000 };
const never = new AbortController().signal;
const clock = new ManualClock(Date.parse("2026-11-26T06:00:00Z"));

const abuse = (opts: Partial<ResilienceOptions> = {}, cache = new MemoryProviderCache()): ResilientProvider =>
  new ResilientProvider(abuseIpdbAdapter({ key: "k", baseUrl: base }), cache, clock, { ...FAST, ...opts });
const abuseAnswer = (score: number) => ({ data: { ipAddress: "203.0.113.9", abuseConfidenceScore: score, isWhitelisted: false, isTor: false, totalReports: 3, numDistinctUsers: 2 } });

describe("the resilient provider wrapper", () => {
  it("retries a 5xx with backoff and a 429 after its Retry-After, then answers", async () => {
    let n = 0;
    routes.set("/api/v2/check", (_q, _b, res) => {
      n++;
      if (n === 1) return json(res, 503, { errors: [{ detail: "down", status: 503 }] });
      if (n === 2) return json(res, 429, { errors: [{ detail: "Daily rate limit of 1000 requests exceeded", status: 429 }] }, { "retry-after": "0" });
      json(res, 200, abuseAnswer(80));
    });
    const f = await abuse().check("ip_address", "203.0.113.9", never);
    expect(n).toBe(3);
    expect(f.map((x) => [x.code, x.strength])).toEqual([["reputation.ip_abuse_reports", 0.8]]);
  });

  it("does not retry a malformed body or a 4xx, and says why", async () => {
    routes.set("/api/v2/check", (_q, _b, res) => void res.writeHead(200, { "content-type": "application/json" }).end("{not json"));
    await expect(abuse().check("ip_address", "203.0.113.9", never)).rejects.toThrow(/not JSON/);
    expect(hits.get("/api/v2/check")).toBe(1);
    routes.set("/api/v2/check", (_q, _b, res) => json(res, 200, { data: { ipAddress: "x" } }));
    await expect(abuse().check("ip_address", "203.0.113.8", never)).rejects.toThrow(/abuseConfidenceScore/);
    routes.set("/api/v2/check", (_q, _b, res) => json(res, 401, { errors: [{ detail: "Authentication failed.", status: 401 }] }));
    await expect(abuse().check("ip_address", "203.0.113.7", never)).rejects.toThrow(/HTTP 401/);
    expect(hits.get("/api/v2/check")).toBe(3);
  });

  it("gives up on a slow answer at its timeout, and stops at the caller's deadline", async () => {
    routes.set("/api/v2/check", () => undefined); // never answers
    const started = performance.now();
    await expect(abuse({ retries: 0 }).check("ip_address", "203.0.113.9", never)).rejects.toThrow(/in time/);
    expect(performance.now() - started).toBeLessThan(600);
    const deadline = AbortSignal.timeout(100);
    const t2 = performance.now();
    await expect(abuse({ attemptTimeoutMs: 5_000 }).check("ip_address", "203.0.113.9", deadline)).rejects.toThrow();
    expect(performance.now() - t2).toBeLessThan(500);
  });

  it("opens its circuit after failures in a row: no more requests until the cooldown", async () => {
    routes.set("/api/v2/check", (_q, _b, res) => json(res, 500, {}));
    const p = abuse({ retries: 0 });
    for (let i = 0; i < 3; i++) await expect(p.check("ip_address", `203.0.113.${i}`, never)).rejects.toThrow(/HTTP 500/);
    expect(p.circuit).toBe("open");
    await expect(p.check("ip_address", "203.0.113.50", never)).rejects.toThrow(/paused/);
    expect(hits.get("/api/v2/check")).toBe(3);
  });

  it("keeps to its rate limit: over it, the provider is unavailable rather than queried", async () => {
    routes.set("/api/v2/check", (_q, _b, res) => json(res, 200, abuseAnswer(0)));
    const p = abuse({ perMinute: 2 });
    await p.check("ip_address", "203.0.113.1", never);
    await p.check("ip_address", "203.0.113.2", never);
    await expect(p.check("ip_address", "203.0.113.3", never)).rejects.toThrow(/rate limit/);
    expect(hits.get("/api/v2/check")).toBe(2);
  });

  it("caches negative answers for their own (shorter) time, positive ones longer", async () => {
    routes.set("/api/v2/check", (req, _b, res) => json(res, 200, abuseAnswer(req.url?.includes("203.0.113.66") ? 90 : 0)));
    const p = abuse({ negativeTtlMs: 60_000, positiveTtlMs: 600_000 });
    expect(await p.check("ip_address", "203.0.113.1", never)).toEqual([]);
    expect((await p.check("ip_address", "203.0.113.66", never)).length).toBe(1);
    await p.check("ip_address", "203.0.113.1", never);
    await p.check("ip_address", "203.0.113.66", never);
    expect(hits.get("/api/v2/check")).toBe(2);
    clock.advance(120_000);
    await p.check("ip_address", "203.0.113.1", never);
    await p.check("ip_address", "203.0.113.66", never);
    expect(hits.get("/api/v2/check")).toBe(3);
  });
});

describe("adapters read each service's wire format", () => {
  const rdap = (body: unknown, status = 200) => {
    routes.set("/rdap/domain/example-shop.com", (_q, _b, res) => json(res, status, body));
    return new ResilientProvider(rdapAdapter({ baseUrl: `${base}/rdap`, bootstrap: RdapBootstrap.bundled(), clock }), new MemoryProviderCache(), clock, FAST);
  };

  it("RDAP: age, registrar, clientHold; 404 is nothing known; a non-domain object is malformed", async () => {
    const registered = new Date(clock.now().getTime() - 10 * 86_400_000).toISOString();
    const f = await rdap({
      objectClassName: "domain", ldhName: "example-shop.com", status: ["client hold", "client transfer prohibited"],
      events: [{ eventAction: "registration", eventDate: registered }],
      entities: [{ objectClassName: "entity", roles: ["registrar"], vcardArray: ["vcard", [["version", {}, "text", "4.0"], ["fn", {}, "text", "NameCheap, Inc."]]] }],
    }).check("url", "https://www.example-shop.com/pay", never);
    expect(f.map((x) => x.code)).toEqual(["reputation.domain_registered", "reputation.domain_new", "reputation.domain_on_hold"]);
    expect(f[0]?.evidence).toMatchObject({ domain: "example-shop.com", age_days: 10, registrar: "NameCheap, Inc." });
    expect(f[1]?.strength).toBeGreaterThan(0.9);
    expect(await rdap({ errorCode: 404 }, 404).check("domain", "example-shop.com", never)).toEqual([]);
    await expect(rdap({ objectClassName: "entity" }).check("domain", "example-shop.com", never)).rejects.toThrow(/not a domain object/);
  });

  it("RDAP bootstrap: the bundled snapshot and a refreshed IANA file; a TLD not covered is unavailable, not clean", async () => {
    const b = RdapBootstrap.bundled();
    expect(b.baseFor("com")).toBe("https://rdap.verisign.com/com/v1/");
    const refreshed = RdapBootstrap.fromIana({ publication: "2026-11-20T00:00:00Z", services: [[["shop", "store"], [`${base}/rdap/`]]] });
    expect(refreshed.baseFor("shop")).toBe(`${base}/rdap/`);
    expect(() => RdapBootstrap.fromIana({ nope: 1 })).toThrow(/bootstrap/);
    const p = new ResilientProvider(rdapAdapter({ bootstrap: b, clock }), new MemoryProviderCache(), clock, FAST);
    await expect(p.check("domain", "example.zz-unknown-tld.shop", never)).rejects.toThrow(/no server for \.shop/);
  });

  it("Safe Browsing v4: a match, no match ({}), a JSON error", async () => {
    let asked: unknown = null;
    routes.set("/v4/threatMatches:find", (req, body, res) => {
      asked = { key: new URL(req.url ?? "", "http://x").searchParams.get("key"), body: JSON.parse(body) };
      const url = (JSON.parse(body) as { threatInfo: { threatEntries: { url: string }[] } }).threatInfo.threatEntries[0]?.url;
      if (url === "http://bad.example/") return json(res, 200, { matches: [{ threatType: "MALWARE", platformType: "ANY_PLATFORM", threatEntryType: "URL", threat: { url }, cacheDuration: "300s" }] });
      if (url === "http://broken.example/") return json(res, 400, { error: { code: 400, message: "API key not valid.", status: "INVALID_ARGUMENT" } });
      json(res, 200, {});
    });
    const p = new ResilientProvider(safeBrowsingAdapter({ key: "sbk", baseUrl: base, clock }), new MemoryProviderCache(), clock, FAST);
    const listed = await p.check("domain", "bad.example", never);
    expect(listed.map((x) => [x.code, x.evidence.threat_types])).toEqual([["reputation.url_listed", "MALWARE"]]);
    expect(listed[0]?.expires_at).toBe(new Date(clock.now().getTime() + 300_000).toISOString());
    // Kept no longer than its cacheDuration: asked again after 300 s.
    await p.check("domain", "bad.example", never);
    expect(hits.get("/v4/threatMatches:find")).toBe(1);
    clock.advance(301_000);
    await p.check("domain", "bad.example", never);
    expect(hits.get("/v4/threatMatches:find")).toBe(2);
    expect(asked).toMatchObject({ key: "sbk", body: { threatInfo: { threatEntries: [{ url: "http://bad.example/" }] } } });
    expect(await p.check("domain", "fine.example", never)).toEqual([]);
    await expect(p.check("domain", "broken.example", never)).rejects.toThrow(/HTTP 400/);
  });

  it("URLhaus: an online URL, a host with URLs, no results, an unexpected query_status", async () => {
    routes.set("/v1/url/", (req, body, res) => {
      expect(req.headers["auth-key"]).toBe("uhk");
      const url = new URLSearchParams(body).get("url");
      if (url === "http://dl.example/x.exe") return json(res, 200, { query_status: "ok", url_status: "online", threat: "malware_download", date_added: "2026-11-20 10:00:00 UTC" });
      json(res, 200, { query_status: "no_results" });
    });
    routes.set("/v1/host/", (_q, body, res) => {
      if (new URLSearchParams(body).get("host") === "dl-host.com") return json(res, 200, { query_status: "ok", url_count: "2", urls: [{ url_status: "online" }, { url_status: "offline" }] });
      json(res, 200, { query_status: "unknown_auth_key" });
    });
    const p = new ResilientProvider(urlhausAdapter({ key: "uhk", baseUrl: base }), new MemoryProviderCache(), clock, FAST);
    expect((await p.check("url", "http://dl.example/x.exe", never))[0]).toMatchObject({ code: "reputation.url_listed", strength: 1, observed_at: "2026-11-20T10:00:00.000Z" });
    expect(await p.check("url", "http://dl.example/other", never)).toEqual([]);
    expect((await p.check("domain", "dl-host.com", never))[0]?.evidence).toMatchObject({ url_count: 2, online: 1 });
    await expect(p.check("domain", "other-host.com", never)).rejects.toThrow(/unknown_auth_key/);
  });
});

/** A tiny DNS server (RFC 1035 over UDP) answering from a table; unknown names are NXDOMAIN. */
function dnsServer(zone: Record<string, { a?: string[]; ns?: string[]; mx?: string[] }>): dgram.Socket {
  const encodeName = (name: string): Buffer => Buffer.concat([...name.split(".").filter(Boolean).map((l) => Buffer.concat([Buffer.from([l.length]), Buffer.from(l)])), Buffer.from([0])]);
  const sock = dgram.createSocket("udp4");
  sock.on("message", (msg, rinfo) => {
    let off = 12;
    const labels: string[] = [];
    while (msg[off] !== 0) {
      const len = msg[off] as number;
      labels.push(msg.subarray(off + 1, off + 1 + len).toString());
      off += len + 1;
    }
    const qtype = msg.readUInt16BE(off + 1);
    const question = msg.subarray(12, off + 5);
    const name = labels.join(".").toLowerCase();
    const z = zone[name];
    const answers: Buffer[] = [];
    const rr = (type: number, rdata: Buffer): Buffer => {
      const h = Buffer.alloc(12);
      h.writeUInt16BE(0xc00c, 0);
      h.writeUInt16BE(type, 2);
      h.writeUInt16BE(1, 4);
      h.writeUInt32BE(60, 6);
      h.writeUInt16BE(rdata.length, 10);
      return Buffer.concat([h, rdata]);
    };
    if (z && qtype === 1) for (const a of z.a ?? []) answers.push(rr(1, Buffer.from(a.split(".").map(Number))));
    if (z && qtype === 2) for (const ns of z.ns ?? []) answers.push(rr(2, encodeName(ns)));
    if (z && qtype === 15) for (const mx of z.mx ?? []) answers.push(rr(15, Buffer.concat([Buffer.from([0, 10]), encodeName(mx)])));
    const header = Buffer.alloc(12);
    header.writeUInt16BE(msg.readUInt16BE(0), 0);
    header.writeUInt16BE(z ? 0x8180 : 0x8183, 2);
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(answers.length, 6);
    sock.send(Buffer.concat([header, question, ...answers]), rinfo.port, rinfo.address);
  });
  return sock;
}

describe("DNS through a configurable resolver", () => {
  let sock: dgram.Socket;
  let server = "";
  beforeAll(async () => {
    sock = dnsServer({
      "mailing-test.com": { a: ["192.0.2.10"], ns: ["ns1.mailing-test.com"], mx: ["mx.mailing-test.com"] },
      "nomail-test.com": { a: ["192.0.2.11"], ns: ["ns1.nomail-test.com"] },
    });
    await new Promise<void>((r) => sock.bind(0, "127.0.0.1", r));
    server = `127.0.0.1:${sock.address().port}`;
  });
  afterAll(() => sock.close());

  it("A/NS of a domain, no MX on an e-mail's domain, a domain that does not resolve", async () => {
    const p = new ResilientProvider(dnsAdapter({ servers: [server] }), new MemoryProviderCache(), clock, FAST);
    const d = await p.check("domain", "mailing-test.com", never);
    expect(d.map((f) => f.code)).toEqual(["reputation.dns_records"]);
    expect(d[0]?.evidence).toMatchObject({ a: "192.0.2.10", ns: "ns1.mailing-test.com" });
    expect(await p.check("email", "ann@mailing-test.com", never)).toEqual([]);
    expect((await p.check("email", "ann@nomail-test.com", never)).map((f) => f.code)).toEqual(["reputation.domain_no_mail"]);
    expect((await p.check("domain", "gone-test.com", never)).map((f) => f.code)).toEqual(["reputation.dns_records", "reputation.domain_unresolvable"]);
  });
});

describe.each(ENGINES)("the provider cache in the database on %s", (engine) => {
  let ds: DataSource;
  let replica: DataSource;
  let scratch: ScratchDatabase | null = null;
  beforeAll(async () => {
    if (engine === "postgres") {
      scratch = await scratchDatabase(process.env.TEST_DATABASE_URL as string);
      ds = await openDataSource({ url: scratch.url });
      replica = await openDataSource({ url: scratch.url });
    } else {
      ds = await openDataSource();
      replica = ds;
    }
  }, 60_000);
  afterAll(async () => {
    if (replica !== ds) await replica?.destroy();
    await ds?.destroy();
    await scratch?.drop();
  });

  it("is shared by replicas (positive and negative), honours expiry, and purges expired rows", async () => {
    const calls: string[] = [];
    const counting: ProviderAdapter = {
      name: "counting", types: ["domain"],
      lookup: (q) => {
        calls.push(q.value);
        const f: Finding[] = q.value === "bad.example" ? [{ code: "reputation.url_listed", family: "reputation", message: "listed", evidence: { list: "x" }, source: { name: "counting", version: "1" } }] : [];
        return Promise.resolve(f);
      },
    };
    const opts = { ...FAST, positiveTtlMs: 600_000, negativeTtlMs: 60_000 };
    const one = new ResilientProvider(counting, new TypeOrmProviderCache(ds), clock, opts);
    const two = new ResilientProvider(counting, new TypeOrmProviderCache(replica), clock, opts);
    expect((await one.check("domain", "bad.example", never)).length).toBe(1);
    expect(await one.check("domain", "good.example", never)).toEqual([]);
    expect((await two.check("domain", "bad.example", never))[0]?.code).toBe("reputation.url_listed");
    expect(await two.check("domain", "good.example", never)).toEqual([]);
    expect(calls).toEqual(["bad.example", "good.example"]);
    clock.advance(120_000);
    const three = new ResilientProvider(counting, new TypeOrmProviderCache(replica), clock, opts);
    await three.check("domain", "good.example", never);
    await three.check("domain", "bad.example", never);
    expect(calls).toEqual(["bad.example", "good.example", "good.example"]);
    clock.advance(3_600_000);
    expect(await new TypeOrmProviderCache(ds).purgeExpired(clock.now())).toBe(2);
    // A cache that purges on every 2nd write removes expired rows by itself.
    const selfCleaning = new TypeOrmProviderCache(ds, 10, 2);
    await selfCleaning.put("counting", "domain:a.example", [], clock.now(), new Date(clock.now().getTime() + 1_000));
    clock.advance(2_000);
    await selfCleaning.put("counting", "domain:b.example", [], clock.now(), new Date(clock.now().getTime() + 1_000));
    expect(await ds.query(`SELECT entity_key FROM provider_cache WHERE provider = 'counting' ORDER BY entity_key`)).toEqual([{ entity_key: "domain:b.example" }]);
  });
});
