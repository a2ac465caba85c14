// `svc intel sync` as users run it: a real process against feeds served from 127.0.0.1.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
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

  it("while a server holds the embedded database, says to stop it first, not to use --url (intel has none)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-feeds-"));
    try {
      // The lock a running `npm start` leaves: a live pid (this test's) and where it serves.
      mkdirSync(join(dir, "pgdata"));
      writeFileSync(join(dir, "pgdata", "svc.lock"), `${process.pid}\nhttp://127.0.0.1:8123\n`);
      const feeds = JSON.stringify([{ name: "ips", url: `${base}/ips.txt`, format: "plain", type: "ip_address" }]);
      const r = await svc(["intel", "sync", "--data-dir", dir], { env: { SVC_FEEDS: feeds } });
      expect(r.code).toBe(3);
      expect(r.stderr).toBe(
        `error: the data directory ${dir} is in use by another svc process (pid ${process.pid}) serving http://127.0.0.1:8123; stop it first: ` +
          "`svc intel` works on the database itself, not through a server; to have that server sync the feeds, start it with SVC_FEEDS and SVC_FEED_SYNC_MINUTES (docs/feeds.md)\n",
      );
      const m = await svc(["migrate", "--data-dir", dir]);
      expect(m.code).toBe(3);
      expect(m.stderr).toMatch(/; stop it first: `svc migrate` works on the database itself \(a server migrates it when it starts\)\n$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("intel import reads the feed formats from a file too (dry run: counted, nothing written)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-feeds-"));
    try {
      const file = join(dir, "sdn.xml");
      writeFileSync(file, `<sdnList><sdnEntry><lastName>EXAMPLE LTD</lastName><programList><program>CYBER2</program></programList><idList>
        <id><idType>Digital Currency Address - ETH</idType><idNumber>0x7F367cC41522cE07553e823bf3be79A889DEbe1B</idNumber></id>
        <id><idType>Digital Currency Address - XMR</idType><idNumber>49WcTmTCwHjVPaaL8r5tSbsvRNk1qWkXnJzcsNgoeNxpGMYc2VyUmUR3JjA6HbBMuXvDdJhsgmRkdgtUgyYgpk1W8xvU4eL</idNumber></id>
      </idList></sdnEntry></sdnList>`);
      const r = await svc(["intel", "import", file, "--format", "ofac-sdn", "--source", "ofac-sdn@2026-11-20", "--dry-run"]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^Dry run, nothing written: 1 entries from .*sdn\.xml would be imported \(source ofac-sdn@2026-11-20\), 1 skipped\.$/m);
      expect(r.stderr).toMatch(/^skipped: "49WcTm/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
