import http from "node:http";
import type { AddressInfo } from "node:net";
import { parseEntity } from "@svc/core";
import { fixedClock } from "@svc/testing";
import type { DataSource } from "typeorm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openDataSource } from "../data-source.js";
import { TypeOrmIntelStore } from "../repositories/typeorm-intel-store.js";
import { scratchDatabase, type ScratchDatabase } from "../scratch-database.js";
import { FeedDefinitionSchema, parseFeedsSetting, type FeedDefinition } from "./config.js";
import { startFeedSchedule } from "./schedule.js";
import { FeedSync } from "./sync.js";

/** A feed server on 127.0.0.1: each path answers what the test put there. */
type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;
let server: http.Server;
let base: string;
const routes = new Map<string, Handler>();
const seen: { path: string; headers: http.IncomingHttpHeaders }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push({ path: req.url ?? "", headers: req.headers });
    const h = routes.get(req.url ?? "");
    if (h) h(req, res);
    else res.writeHead(404).end("not found");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

/** Serves `body` with an ETag, answering 304 to a matching If-None-Match. */
function serveWithEtag(path: string, body: string, etag: string): void {
  routes.set(path, (req, res) => {
    if (req.headers["if-none-match"] === etag) return void res.writeHead(304, { etag }).end();
    res.writeHead(200, { etag, "content-type": "application/json" }).end(body);
  });
}

const feed = (o: Partial<FeedDefinition> & Pick<FeedDefinition, "name" | "format">): FeedDefinition =>
  FeedDefinitionSchema.parse({ url: `${base}/${o.name}`, ...o });

const ethConfig = (blacklist: string[], whitelist: string[] = []) => JSON.stringify({ version: 2, tolerance: 2, fuzzylist: [], whitelist, blacklist });

const SDN = `<?xml version="1.0" standalone="yes"?>
<sdnList xmlns="https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/XML">
  <publshInformation><Publish_Date>11/20/2026</Publish_Date><Record_Count>1</Record_Count></publshInformation>
  <sdnEntry><uid>1</uid><lastName>GARANTEX EUROPE OU</lastName><sdnType>Entity</sdnType>
    <programList><program>CYBER2</program></programList>
    <idList>
      <id><uid>11</uid><idType>Digital Currency Address - ETH</idType><idNumber>0x7F367cC41522cE07553e823bf3be79A889DEbe1B</idNumber></id>
      <id><uid>12</uid><idType>Digital Currency Address - XBT</idType><idNumber>1AjZPMsnmpdK2Rv9KQNfMurTXinscVro9V</idNumber></id>
      <id><uid>13</uid><idType>Digital Currency Address - XMR</idType><idNumber>49WcTmTCwHjVPaaL8r5tSbsvRNk1qWkXnJzcsNgoeNxpGMYc2VyUmUR3JjA6HbBMuXvDdJhsgmRkdgtUgyYgpk1W8xvU4eL</idNumber></id>
    </idList></sdnEntry>
</sdnList>`;

const ENGINES = ["pglite", ...(process.env.TEST_DATABASE_URL ? ["postgres"] : [])] as const;

describe.each(ENGINES)("live feeds on %s", (engine) => {
  let ds: DataSource;
  let scratch: ScratchDatabase | null = null;
  const clock = fixedClock("2026-11-26T06:00:00Z");
  const store = () => new TypeOrmIntelStore(ds);
  const lookup = async (value: string) => {
    const p = parseEntity(value);
    if (!p.ok) throw new Error(p.error.message);
    return store().lookup(p.entity);
  };
  const rowsOf = async (source: string) =>
    ((await ds.query(`SELECT value, list, label, version, added_at FROM intel_records WHERE source = $1 ORDER BY value`, [source])) as { value: string; list: string; label: string; version: string; added_at: Date }[]);

  beforeAll(async () => {
    if (engine === "postgres") {
      scratch = await scratchDatabase(process.env.TEST_DATABASE_URL as string);
      ds = await openDataSource({ url: scratch.url });
    } else ds = await openDataSource();
  }, 60_000);
  afterAll(async () => {
    await ds?.destroy();
    await scratch?.drop();
  });
  beforeEach(() => {
    routes.clear();
    seen.length = 0;
  });

  it("loads an eth-phishing-detect config, then answers 304 to the ETag, then diffs a new version", async () => {
    const def = feed({ name: "eth", format: "eth-phishing-detect" });
    const sync = new FeedSync(ds, [def], { clock });
    serveWithEtag("/eth", ethConfig(["metamask-claim.xyz", "uniswap-airdrop.top", "old-scam.com"], ["myetherwallet.com"]), '"v1"');
    const [first] = await sync.syncAll();
    expect(first).toMatchObject({ feed: "eth", status: "loaded", entries: 4, added: 4, removed: 0, unchanged: 0, skipped: 0, version: expect.stringMatching(/^2026-11-26\.[0-9a-f]{12}$/) });
    const [hit] = await lookup("https://login.metamask-claim.xyz/connect");
    expect(hit).toMatchObject({ list: "block", source: "feed:eth", label: "phishing site (blacklist)", version: first!.version, matched_on: "parent", added_at: "2026-11-26T06:00:00.000Z" });
    expect((await lookup("myetherwallet.com"))[0]).toMatchObject({ list: "allow", source: "feed:eth" });

    clock.advance(3_600_000);
    const [second] = await sync.syncAll();
    expect(seen.at(-1)?.headers["if-none-match"]).toBe('"v1"');
    expect(second).toMatchObject({ status: "not_modified", entries: 4, version: first!.version });

    clock.advance(3_600_000);
    serveWithEtag("/eth", ethConfig(["metamask-claim.xyz", "uniswap-airdrop.top", "new-scam.click"], ["myetherwallet.com"]), '"v2"');
    const [third] = await sync.syncAll();
    expect(third).toMatchObject({ status: "loaded", entries: 4, added: 1, removed: 1, unchanged: 3 });
    const rows = await rowsOf("feed:eth");
    expect(rows.map((r) => r.value)).toEqual(["metamask-claim.xyz", "myetherwallet.com", "new-scam.click", "uniswap-airdrop.top"]);
    // An entry keeps the version and time it first came in; a new one gets the new version.
    expect(rows.find((r) => r.value === "metamask-claim.xyz")?.version).toBe(first!.version);
    expect(rows.find((r) => r.value === "new-scam.click")?.version).toBe(third!.version);
    expect(await lookup("old-scam.com")).toEqual([]);
    const [state] = await sync.status();
    expect(state?.state).toMatchObject({ etag: '"v2"', entries: 4, version: third!.version, last_error: null });
  });

  it("sends If-Modified-Since, and a forced sync of the same content reports it unchanged", async () => {
    const def = feed({ name: "hosts", format: "hosts" });
    const lastModified = "Wed, 25 Nov 2026 10:00:00 GMT";
    routes.set("/hosts", (req, res) => {
      if (req.headers["if-modified-since"] === lastModified) return void res.writeHead(304).end();
      res.writeHead(200, { "last-modified": lastModified }).end("# a hosts file\n0.0.0.0 drainer-claim.site\n0.0.0.0 wallet-verify.top\n127.0.0.1 localhost\n");
    });
    const sync = new FeedSync(ds, [def], { clock });
    expect((await sync.syncAll())[0]).toMatchObject({ status: "loaded", added: 2 });
    expect((await sync.syncAll())[0]?.status).toBe("not_modified");
    expect(seen.at(-1)?.headers["if-modified-since"]).toBe(lastModified);
    expect((await sync.syncAll({ force: true }))[0]).toMatchObject({ status: "unchanged", entries: 2 });
    expect(seen.at(-1)?.headers["if-modified-since"]).toBeUndefined();
  });

  it("keeps the old entries when the feed answers 500, times out, is malformed or too large, and records why", async () => {
    const def = feed({ name: "keep", format: "eth-phishing-detect", max_megabytes: 1 });
    const sync = new FeedSync(ds, [def], { clock, timeoutMs: 300 });
    routes.set("/keep", (_q, res) => res.writeHead(200).end(ethConfig(["kept-scam.xyz", "kept-too.top"])));
    expect((await sync.syncAll())[0]?.status).toBe("loaded");
    const before = await rowsOf("feed:keep");

    const failures: [Handler, string, RegExp][] = [
      [(_q, res) => res.writeHead(500, "Internal Server Error").end("oops"), "feed.http_status", /answered HTTP 500 Internal Server Error/],
      [() => undefined, "feed.timeout", /no complete answer within 0.3 s/],
      // Headers, half a body, then silence.
      [(_q, res) => { res.writeHead(200, { "content-length": "1000" }); res.write('{"blacklist": ["a.com",'); }, "feed.timeout", /no complete answer/],
      [(_q, res) => res.writeHead(200).end(ethConfig(["new.com", "other.com"]).slice(0, 30)), "feed.malformed", /not a valid eth-phishing-detect feed: invalid JSON/],
      [(_q, res) => res.writeHead(200).end("<html>maintenance</html>"), "feed.malformed", /invalid JSON/],
      [(_q, res) => res.writeHead(200).end(ethConfig([])), "feed.empty", /no usable entry/],
      [(_q, res) => res.writeHead(200).end(ethConfig(["x".repeat(1024 * 1024 + 10)])), "feed.too_large", /larger than max_megabytes \(1 MB\)/],
      // Too large without a Content-Length: counted while streaming.
      [(_q, res) => { res.writeHead(200); res.write("[".repeat(700_000)); res.end("[".repeat(700_000)); }, "feed.too_large", /larger than/],
    ];
    for (const [handler, code, message] of failures) {
      routes.set("/keep", handler);
      clock.advance(60_000);
      const [r] = await sync.syncAll();
      expect(r, code).toMatchObject({ status: "failed", entries: 2, error: { code, message: expect.stringMatching(message) } });
      expect(await rowsOf("feed:keep")).toEqual(before);
      const [state] = await sync.status();
      expect(state?.state?.last_error).toMatch(message);
      expect(state?.state?.checked_at?.toISOString()).toBe(clock.now().toISOString());
    }
    routes.delete("/keep");
    expect((await sync.syncAll())[0]?.error?.code).toBe("feed.http_status");
    // A maintenance page answered 200 to a plain list: its tags pass the line reader but are no
    // entities, and the one domain-like line on it must not replace the list.
    const list = feed({ name: "keep-plain", format: "plain" });
    const plainSync = new FeedSync(ds, [list], { clock });
    routes.set("/keep-plain", (_q, res) => res.writeHead(200).end("kept-one.xyz\nkept-two.top\nkept-three.click\n"));
    expect((await plainSync.syncAll())[0]).toMatchObject({ status: "loaded", entries: 3 });
    const plainBefore = await rowsOf("feed:keep-plain");
    routes.set("/keep-plain", (_q, res) => res.writeHead(200).end("<!DOCTYPE html>\n<html>\n<body>\n<p>maintenance</p>\nexample.com\n</body>\n</html>\n"));
    expect((await plainSync.syncAll())[0]).toMatchObject({
      status: "failed", entries: 3,
      error: { code: "feed.malformed", message: expect.stringMatching(/^not a valid plain feed: 6 entries refused, 1 taken \(first: line 1: contains whitespace\)/) },
    });
    expect(await rowsOf("feed:keep-plain")).toEqual(plainBefore);
    // Unreachable: nothing listens there any more.
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const gone = new FeedSync(ds, [{ ...def, url: `http://127.0.0.1:${port}/feed.json` }], { clock, timeoutMs: 2_000 });
    expect((await gone.syncAll())[0]?.error).toMatchObject({ code: "feed.unreachable", message: `cannot reach 127.0.0.1:${port}: ECONNREFUSED` });
    expect(await rowsOf("feed:keep")).toEqual(before);
  });

  it("refuses malformed CSV and XML as a whole, and skips a huge line while keeping the rest", async () => {
    const csv = feed({ name: "csv", format: "csv" });
    const xml = feed({ name: "sdn-bad", format: "ofac-sdn" });
    const plain = feed({ name: "plain", format: "plain", type: "domain" });
    routes.set("/csv", (_q, res) => res.writeHead(200).end('entity,label\n"unterminated,x\nok.com,y\n"also,bad\n'));
    routes.set("/sdn-bad", (_q, res) => res.writeHead(200).end(SDN.slice(0, SDN.indexOf("</idList>"))));
    const dot = feed({ name: "dot-bad", format: "polkadot-js-address" });
    routes.set("/plain", (_q, res) => res.writeHead(200).end(`good-one.xyz\n${"a".repeat(3_000_000)}.com\ngood-two.xyz\n`));
    routes.set("/dot-bad", (_q, res) => res.writeHead(200).end('{"scam.site": ["15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5"'));
    const sync = new FeedSync(ds, [csv, xml, plain, dot], { clock });
    const [c, x, p, d] = await sync.syncAll();
    expect(d).toMatchObject({ status: "failed", error: { code: "feed.malformed", message: expect.stringMatching(/^not a valid polkadot-js-address feed: invalid JSON/) } });
    expect(c).toMatchObject({ status: "failed", error: { code: "feed.malformed" } });
    expect(x).toMatchObject({ status: "failed", error: { code: "feed.malformed", message: expect.stringMatching(/malformed XML/) } });
    expect(p).toMatchObject({ status: "loaded", entries: 2, skipped: 1, skipped_sample: ["line 2: value longer than 2048 characters"] });
    expect(await rowsOf("feed:csv")).toEqual([]);
    expect(await rowsOf("feed:sdn-bad")).toEqual([]);
  });

  it("loads OFAC SDN and polkadot-js addresses as wallets, skipping chains svc does not read", async () => {
    const sdn = feed({ name: "ofac", format: "ofac-sdn" });
    const dot = feed({ name: "dot-addr", format: "polkadot-js-address" });
    const dotAll = feed({ name: "dot-all", format: "polkadot-js-all" });
    routes.set("/ofac", (_q, res) => res.writeHead(200, { "content-type": "application/xml" }).end(SDN));
    routes.set("/dot-addr", (_q, res) => res.writeHead(200).end(JSON.stringify({ "polkadot-gift.com": ["15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5", "not-an-address"] })));
    routes.set("/dot-all", (_q, res) => res.writeHead(200).end(JSON.stringify({ allow: ["polkadot.network"], deny: ["polkadot-claim.xyz"] })));
    const [o, d, a] = await new FeedSync(ds, [sdn, dot, dotAll], { clock }).syncAll();
    expect(o).toMatchObject({ status: "loaded", entries: 2, skipped: 1, version: expect.stringMatching(/^2026-11-20\./) });
    expect(o?.skipped_sample[0]).toMatch(/^"49WcTm.*not a recognised wallet address/);
    expect((await lookup("0x7f367cc41522ce07553e823bf3be79a889debe1b"))[0]).toMatchObject({ list: "block", source: "feed:ofac", label: "sanctioned: GARANTEX EUROPE OU (CYBER2; ETH)", matched_on: "exact" });
    expect(d).toMatchObject({ status: "loaded", entries: 1, skipped: 1 });
    expect((await lookup("15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5"))[0]).toMatchObject({ source: "feed:dot-addr", label: "address used by polkadot-gift.com" });
    // The same account written for Kusama or generic Substrate is the listed one too.
    for (const other of ["HNZata7iMYWmk5RvZRTiAsSDhV8366zq2YGb3tLH5Upf74F", "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY"]) {
      expect((await lookup(other))[0]).toMatchObject({ source: "feed:dot-addr", matched_value: "15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5", matched_on: "exact" });
    }
    expect(a).toMatchObject({ status: "loaded", entries: 2 });
  });

  it("runs on a schedule and skips a feed another process checked within the period", async () => {
    const def = feed({ name: "sched", format: "plain", type: "ip_address" });
    routes.set("/sched", (_q, res) => res.writeHead(200).end("203.0.113.7\n198.51.100.9\n"));
    const sync = new FeedSync(ds, [def], { clock });
    const schedule = startFeedSchedule(sync, { everyMs: 60_000, firstAfterMs: 0 });
    const results = await schedule.nextRun();
    await schedule.stop();
    expect(results[0]).toMatchObject({ status: "loaded", entries: 2 });
    expect((await lookup("203.0.113.7"))[0]).toMatchObject({ source: "feed:sched", list: "block" });
    expect((await sync.syncAll({ dueAfterMs: 60_000 }))[0]?.status).toBe("skipped");
    clock.advance(61_000);
    expect((await sync.syncAll({ dueAfterMs: 60_000 }))[0]?.status).toBe("unchanged");
  });

  it.runIf(engine === "postgres")("readers in another session see the old list or the new one, never a mix", async () => {
    const reader = await openDataSource({ url: scratch?.url as string });
    try {
      const def = feed({ name: "swap", format: "plain", type: "domain" });
      const list = (from: number, n: number) => Array.from({ length: n }, (_, i) => `swap-${from + i}.xyz`).join("\n");
      let body = list(0, 10_000);
      routes.set("/swap", (_q, res) => res.writeHead(200).end(body));
      const sync = new FeedSync(ds, [def], { clock });
      await sync.syncAll();
      body = list(5_000, 15_000);
      const counts = new Set<number>();
      let done = false;
      const reading = (async () => {
        while (!done) {
          const [r] = (await reader.query(`SELECT count(*)::int AS n FROM intel_records WHERE source = 'feed:swap'`)) as { n: number }[];
          counts.add(r?.n ?? -1);
        }
      })();
      const [r] = await sync.syncAll();
      done = true;
      await reading;
      expect(r).toMatchObject({ status: "loaded", entries: 15_000, added: 10_000, removed: 5_000, unchanged: 5_000 });
      expect([...counts].every((n) => n === 10_000 || n === 15_000), [...counts].join(",")).toBe(true);
    } finally {
      await reader.destroy();
    }
  }, 60_000);

  it("a feed taken out of the configuration keeps its entries, is listed as such, and can be removed", async () => {
    const def = feed({ name: "gone", format: "plain", type: "domain" });
    routes.set("/gone", (_q, res) => res.writeHead(200).end("gone-scam.xyz\n"));
    await new FeedSync(ds, [def], { clock }).syncAll();
    const without = new FeedSync(ds, [], { clock });
    const listed = (await without.status()).find((s) => s.state?.name === "gone");
    expect(listed).toMatchObject({ definition: null, state: { entries: 1, url: def.url } });
    expect(await lookup("gone-scam.xyz")).toHaveLength(1);
    expect(await without.remove("gone")).toBe(1);
    expect(await lookup("gone-scam.xyz")).toEqual([]);
    expect((await without.status()).some((s) => s.state?.name === "gone")).toBe(false);
    await expect(without.remove("gone")).rejects.toThrow(/no feed named gone has anything stored/);
  });

  it("names an unknown feed", async () => {
    await expect(new FeedSync(ds, [], { clock }).syncAll({ only: ["nope"] })).rejects.toThrow(/no feed named nope is configured/);
  });
});

describe("SVC_FEEDS", () => {
  const read = (files: Record<string, string>) => (p: string) => {
    if (p in files) return files[p] as string;
    throw Object.assign(new Error("no such file"), { code: "ENOENT" });
  };
  it("reads a JSON array or a file holding one, with defaults", () => {
    const list = '[{"name":"ofac","url":"https://example.org/sdn.xml","format":"ofac-sdn"}]';
    expect(parseFeedsSetting(list, read({}))).toEqual([{ name: "ofac", url: "https://example.org/sdn.xml", format: "ofac-sdn", timeout_seconds: 60, max_megabytes: 64 }]);
    expect(parseFeedsSetting("/etc/svc/feeds.json", read({ "/etc/svc/feeds.json": list }))).toHaveLength(1);
    expect(parseFeedsSetting(undefined, read({}))).toEqual([]);
    expect(parseFeedsSetting("  ", read({}))).toEqual([]);
  });
  it("says what is wrong", () => {
    expect(() => parseFeedsSetting("/nope.json", read({}))).toThrow(/not a JSON array and not a readable file: \/nope.json \(ENOENT\)/);
    expect(() => parseFeedsSetting("[{", read({}))).toThrow(/invalid JSON/);
    expect(() => parseFeedsSetting('[{"name":"A b","url":"ftp://x","format":"rss","extra":1}]', read({}))).toThrow(/\[0\]\.\[name\].*\[0\]\.\[url\] must be an http/);
    const twice = '[{"name":"a","url":"https://x.org/a","format":"plain"},{"name":"a","url":"https://x.org/b","format":"plain"}]';
    expect(() => parseFeedsSetting(twice, read({}))).toThrow(/"a" is used by two feeds/);
  });
});
