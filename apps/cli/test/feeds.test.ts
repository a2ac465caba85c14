// `svc intel sync` as users run it: a real process against feeds served from 127.0.0.1.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { svc } from "./spawn.js";

let server: http.Server;
let base = "";
beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === "/ips.txt") return void res.writeHead(200).end("203.0.113.5\n198.51.100.0/24\n203.0.113.6\n");
    res.writeHead(502, "Bad Gateway").end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe("svc intel sync", { timeout: 240_000 }, () => {
  it("prints per-feed counts, says which feed failed and why, and exits 3", async () => {
    const feeds = [
      { name: "ips", url: `${base}/ips.txt`, format: "plain", type: "ip_address" },
      { name: "down", url: `${base}/down.json`, format: "eth-phishing-detect" },
    ];
    const r = await svc(["intel", "sync"], { env: { SVC_DATA_DIR: "memory://", SVC_FEEDS: JSON.stringify(feeds) } });
    expect(r.code, r.stderr).toBe(3);
    const lines = r.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^ips: 2 entries, version \d{4}-\d\d-\d\d\.[0-9a-f]{12}: 2 added, 0 removed, 0 unchanged, 1 skipped$/);
    expect(lines[1]).toBe(`down: FAILED (feed.http_status): 127.0.0.1:${new URL(base).port} answered HTTP 502 Bad Gateway; its 0 entries are kept`);
    expect(r.stderr).toMatch(/^ips: skipped "198\.51\.100\.0\/24": /m);
  });
});
