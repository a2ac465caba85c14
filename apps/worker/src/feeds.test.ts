import http from "node:http";
import type { AddressInfo } from "node:net";
import { parseEntity } from "@svc/core";
import { scratchDatabase, TypeOrmIntelStore } from "@svc/persistence";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildWorker, ConfigError, loadWorkerConfig } from "@svc/runtime";

const PG_URL = process.env.TEST_DATABASE_URL;
const base = { DATABASE_URL: "postgres://localhost/x", SVC_AUDIT_KEY: "the worker tests' audit key, 32+ characters" };

describe("worker feed settings", () => {
  it("are off by default; SVC_FEEDS is read like the API's, and a bad one names the variable", () => {
    expect(loadWorkerConfig(base)).toMatchObject({ SVC_FEEDS: [], SVC_FEED_SYNC_MINUTES: 0 });
    const c = loadWorkerConfig({ ...base, SVC_FEEDS: '[{"name":"ips","url":"https://example.org/ips.txt","format":"plain"}]', SVC_FEED_SYNC_MINUTES: "30" });
    expect(c.SVC_FEEDS.map((f) => f.name)).toEqual(["ips"]);
    expect(c.SVC_FEED_SYNC_MINUTES).toBe(30);
    expect(() => loadWorkerConfig({ ...base, SVC_FEEDS: "[1]" })).toThrow(ConfigError);
    expect(() => loadWorkerConfig({ ...base, SVC_FEEDS: "[1]" })).toThrow(/SVC_FEEDS: invalid feed list/);
  });
});

describe.skipIf(!PG_URL)("the worker syncs feeds on its schedule (PostgreSQL)", () => {
  let server: http.Server;
  let url = "";
  let db: { url: string; drop(): Promise<void> };
  beforeAll(async () => {
    server = http.createServer((_req, res) => res.writeHead(200).end("203.0.113.77\n"));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/ips.txt`;
    db = await scratchDatabase(PG_URL as string);
  }, 60_000);
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await db?.drop();
  });

  it("loads the feed, and stops with the worker", async () => {
    const config = loadWorkerConfig({
      ...base, DATABASE_URL: db.url, LOG_LEVEL: "silent", SVC_FEED_SYNC_MINUTES: "60",
      SVC_FEEDS: JSON.stringify([{ name: "ips", url, format: "plain", type: "ip_address" }]),
    });
    const runtime = await buildWorker(config, pino({ level: "silent" }), { feedsFirstAfterMs: 0 });
    try {
      expect(runtime.feeds).not.toBeNull();
      const [r] = (await runtime.feeds?.nextRun()) ?? [];
      expect(r).toMatchObject({ feed: "ips", status: "loaded", entries: 1 });
      const ip = parseEntity("203.0.113.77");
      if (!ip.ok) throw new Error("unreachable");
      expect((await new TypeOrmIntelStore(runtime.dataSource).lookup(ip.entity))[0]).toMatchObject({ source: "feed:ips", list: "block" });
    } finally {
      await runtime.close();
    }
  }, 60_000);
});
