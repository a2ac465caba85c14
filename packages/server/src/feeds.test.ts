import http from "node:http";
import type { AddressInfo } from "node:net";
import { VerdictSchema } from "@svc/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "@svc/runtime";
import { startTestApi, type TestApi } from "./test-support.js";

const engines = (["pglite", "postgres"] as const).filter((e) => e === "pglite" || process.env.TEST_DATABASE_URL);

const SANCTIONED_ETH = "0x7F367cC41522cE07553e823bf3be79A889DEbe1B";
const SCAM_DOT = "15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5";
const SDN = `<?xml version="1.0" standalone="yes"?>
<sdnList xmlns="https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/XML">
  <publshInformation><Publish_Date>11/20/2026</Publish_Date><Record_Count>1</Record_Count></publshInformation>
  <sdnEntry><uid>1</uid><lastName>GARANTEX EUROPE OU</lastName><sdnType>Entity</sdnType>
    <programList><program>CYBER2</program></programList>
    <idList><id><uid>11</uid><idType>Digital Currency Address - ETH</idType><idNumber>${SANCTIONED_ETH}</idNumber></id></idList>
  </sdnEntry>
</sdnList>`;

let server: http.Server;
let base = "";
let sdnStatus = 200;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === "/sdn.xml") return void (sdnStatus === 200 ? res.writeHead(200, { etag: '"sdn-1"' }).end(SDN) : res.writeHead(sdnStatus).end());
    if (req.url === "/address.json") return void res.writeHead(200).end(JSON.stringify({ "polkadot-claim.xyz": [SCAM_DOT] }));
    if (req.url === "/ips.txt") return void res.writeHead(200).end("# drainer backends\n203.0.113.66\n");
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe.each(engines)("live feeds answer screening through the API on %s", (engine) => {
  let api: TestApi;
  let key = "";
  beforeAll(async () => {
    const feeds = [
      { name: "ofac-sdn", url: `${base}/sdn.xml`, format: "ofac-sdn" },
      { name: "polkadot-addresses", url: `${base}/address.json`, format: "polkadot-js-address" },
      { name: "drainer-ips", url: `${base}/ips.txt`, format: "plain", type: "ip_address", label: "wallet-drainer backend" },
    ];
    api = await startTestApi(engine, { SVC_FEEDS: JSON.stringify(feeds) });
    ({ key } = await api.account("pro"));
  }, 120_000);
  afterAll(async () => api?.close());

  const screen = async (value: string) => {
    const res = await api.app.request("/v1/screen", { method: "POST", headers: { "content-type": "application/json", "x-api-key": key }, body: JSON.stringify({ entity_value: value }) });
    expect(res.status, value).toBe(200);
    return VerdictSchema.parse(await res.json());
  };

  it("a wallet is not known before the sync, and screened high with the feed's provenance after it; a failed sync keeps it", async () => {
    const before = await screen(SANCTIONED_ETH);
    expect(before.signals.map((s) => s.code)).not.toContain("intel.blocklisted");

    const results = await api.runtime.feeds.syncAll();
    expect(results.map((r) => [r.feed, r.status, r.entries])).toEqual([["ofac-sdn", "loaded", 1], ["polkadot-addresses", "loaded", 1], ["drainer-ips", "loaded", 1]]);

    const after = await screen(SANCTIONED_ETH.toLowerCase());
    expect(["high", "critical"]).toContain(after.risk_level);
    expect(after.recommended_action).not.toBe("allow");
    const hit = after.signals.find((s) => s.code === "intel.blocklisted");
    expect(hit).toMatchObject({
      message: "Listed as sanctioned: GARANTEX EUROPE OU (CYBER2; ETH) by feed:ofac-sdn",
      evidence: { list: "feed:ofac-sdn", matched_on: "exact" },
      source: { name: "feed:ofac-sdn", version: results[0]!.version },
    });

    const dot = await screen(SCAM_DOT);
    expect(dot.entity.type).toBe("wallet");
    expect(["high", "critical"]).toContain(dot.risk_level);
    expect(dot.signals.find((s) => s.code === "intel.blocklisted")?.evidence).toMatchObject({ list: "feed:polkadot-addresses", label: "address used by polkadot-claim.xyz" });

    const ip = await screen("203.0.113.66");
    expect(["high", "critical"]).toContain(ip.risk_level);
    expect(ip.signals.find((s) => s.code === "intel.blocklisted")?.evidence).toMatchObject({ list: "feed:drainer-ips", label: "wallet-drainer backend" });

    sdnStatus = 503;
    const [failed] = await api.runtime.feeds.syncAll({ only: ["ofac-sdn"], force: true });
    sdnStatus = 200;
    expect(failed).toMatchObject({ status: "failed", entries: 1, error: { code: "feed.http_status" } });
    expect((await screen(SANCTIONED_ETH)).signals.map((s) => s.code)).toContain("intel.blocklisted");
  });
});

describe("SVC_FEEDS in the configuration", () => {
  it("is off by default and names the variable when it is wrong", () => {
    const c = loadConfig({ SVC_DATA_DIR: "memory://" });
    expect(c.SVC_FEEDS).toEqual([]);
    expect(c.SVC_FEED_SYNC_MINUTES).toBe(0);
    expect(() => loadConfig({ SVC_FEEDS: '[{"name":"x","url":"https://x.org/l.txt","format":"rss"}]' })).toThrow(ConfigError);
    expect(() => loadConfig({ SVC_FEEDS: "/no/such/feeds.json" })).toThrow(/SVC_FEEDS: not a JSON array and not a readable file/);
    expect(() => loadConfig({ SVC_FEED_SYNC_MINUTES: "-1" })).toThrow(/SVC_FEED_SYNC_MINUTES/);
  });
});
