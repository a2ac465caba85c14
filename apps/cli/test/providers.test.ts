// `svc providers test` as users run it: a real process against fake providers on 127.0.0.1.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { svc } from "./spawn.js";

let server: http.Server;
let base = "";
beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === "/rdap/domain/example.com") return void res.writeHead(200, { "content-type": "application/rdap+json" }).end(JSON.stringify({ objectClassName: "domain", ldhName: "EXAMPLE.COM", events: [{ eventAction: "registration", eventDate: "1995-08-14T04:00:00Z" }] }));
    if (req.url === "/rdap/dns.json") return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ publication: "2026-11-25T19:00:01Z", version: "1.0", services: [[["shop", "store"], ["https://rdap.example.net/"]]] }));
    if (req.url === "/tor/exit-addresses") return void res.writeHead(200, { "content-type": "text/plain" }).end("ExitNode 0011BD2485AD45D984EC4159C88FC066E5E3300E\nPublished 2026-11-25 21:31:49\nLastStatus 2026-11-26 01:00:00\nExitAddress 198.51.100.23 2026-11-26 01:06:27\n");
    if (req.url?.startsWith("/blockscout/api?")) return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ status: "1", message: "OK", result: [{ blockNumber: "46147", timeStamp: "1438918233", hash: "0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060" }] }));
    if (req.url?.startsWith("/chainabuse/v0/reports")) return void res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ reason: "Unauthorized" }));
    if (req.url?.startsWith("/abuse/api/v2/check")) return void res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ errors: [{ detail: "Authentication failed. Your API key is either missing, incorrect, or revoked.", status: 401 }] }));
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe("svc providers test", { timeout: 120_000 }, () => {
  it("tests the wallet and IP providers too: a downloaded list, a keyless explorer, a refused key", async () => {
    const r = await svc(["providers", "test", "--json"], {
      env: {
        SVC_DATA_DIR: "memory://", SVC_PROVIDERS: "tor-exits,explorer,chainabuse",
        SVC_TOR_EXITS_URL: `${base}/tor/exit-addresses`, SVC_EXPLORER_URL: `${base}/blockscout/api`,
        SVC_CHAINABUSE_KEY: "wrong", SVC_CHAINABUSE_URL: `${base}/chainabuse/v0`,
      },
    });
    expect(r.code, r.stderr).toBe(3);
    const rows = JSON.parse(r.stdout) as { provider: string; configured: boolean; reachable: boolean | null; detail: string }[];
    const by = Object.fromEntries(rows.map((x) => [x.provider, x]));
    expect(by["tor-exits"]).toMatchObject({ configured: true, reachable: true, detail: expect.stringContaining("downloaded 1 exit addresses of 1 relays") as unknown });
    expect(by.explorer).toMatchObject({ configured: true, reachable: true, detail: expect.stringContaining("reachable (127.0.0.1") as unknown });
    expect(by.chainabuse).toMatchObject({ configured: true, reachable: false, detail: "chainabuse answered HTTP 401" });
    expect(by.ipqualityscore).toMatchObject({ configured: false, detail: "not enabled (add it to SVC_PROVIDERS and set SVC_IPQS_KEY)" });
    expect(by["ip-asn"]).toMatchObject({ configured: false, detail: "not enabled (add it to SVC_PROVIDERS and set SVC_IP_ASN_FILE)" });
  });

  it("says which providers are on and reachable; a refused key exits 3", async () => {
    const r = await svc(["providers", "test"], { env: { SVC_DATA_DIR: "memory://", SVC_PROVIDERS: "rdap,abuseipdb", SVC_RDAP_URL: `${base}/rdap/`, SVC_ABUSEIPDB_KEY: "wrong", SVC_ABUSEIPDB_URL: `${base}/abuse` } });
    expect(r.code, r.stderr).toBe(3);
    const lines = r.stdout.trim().split("\n");
    expect(lines[0]).toMatch(new RegExp(`^rdap: ok - reachable \\(${base}/rdap/\\); example\\.com found`));
    expect(lines[1]).toBe("dns: off - not enabled (add it to SVC_PROVIDERS)");
    expect(lines[2]).toBe("safe-browsing: off - not enabled (add it to SVC_PROVIDERS and set SVC_SAFE_BROWSING_KEY)");
    expect(lines[4]).toBe("abuseipdb: UNREACHABLE - abuseipdb answered HTTP 401");
  });

  it("rdap-bootstrap stores a checked copy of the IANA file in the data directory", async () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-rdap-"));
    try {
      const r = await svc(["providers", "rdap-bootstrap", "--url", `${base}/rdap/dns.json`, "--data-dir", dir]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe(`RDAP bootstrap 2026-11-25T19:00:01Z: 2 TLDs, stored in ${join(dir, "rdap-dns.json")}\n`);
      expect(JSON.parse(readFileSync(join(dir, "rdap-dns.json"), "utf8"))).toMatchObject({ services: [[["shop", "store"], ["https://rdap.example.net/"]]] });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
