// Server mode with a query bound: a query the network never answers closes its connection, the
// transaction it was in is rolled back (never committed by the pool's next user), and the pool
// serves again once the network does.
import net from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { openDataSource } from "./data-source.js";
import { copyExportCsv } from "./repositories/csv-export.js";
import { scratchDatabase } from "./scratch-database.js";
import { isDatabaseUnavailable } from "./unavailable.js";

const ADMIN = process.env.TEST_DATABASE_URL;
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of closers.reverse()) await c();
});

/** A TCP proxy to `url`'s server that can stop forwarding (a network black hole), and the URL through it. */
async function holeableProxy(url: string): Promise<{ url: string; hole(on: boolean): void }> {
  const target = new URL(url);
  let holed = false;
  const pairs = new Set<[net.Socket, net.Socket]>();
  const proxy = net.createServer((c) => {
    const u = net.connect(Number(target.port || 5432), target.hostname);
    c.pipe(u);
    u.pipe(c);
    if (holed) {
      c.pause();
      u.pause();
    }
    const pair: [net.Socket, net.Socket] = [c, u];
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      c.destroy();
      u.destroy();
    };
    c.on("error", end).on("close", end);
    u.on("error", end).on("close", end);
  });
  await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r));
  closers.push(() => new Promise<void>((r) => proxy.close(() => r())));
  const via = new URL(url);
  via.host = `127.0.0.1:${(proxy.address() as net.AddressInfo).port}`;
  return {
    url: via.toString(),
    hole(on) {
      holed = on;
      for (const [c, u] of pairs) {
        if (on) {
          c.pause();
          u.pause();
        } else {
          c.resume();
          u.resume();
        }
      }
    },
  };
}

describe.skipIf(!ADMIN)("a bounded query on PostgreSQL", () => {
  it("closes its connection on no answer; the half transaction never commits; the pool recovers", { timeout: 30_000 }, async () => {
    const db = await scratchDatabase(ADMIN as string, "svc_qbound");
    closers.push(() => db.drop());
    const proxy = await holeableProxy(db.url);
    const ds = await openDataSource({ url: proxy.url, queryTimeoutMs: 500, poolSize: 2 });
    closers.push(() => ds.destroy());
    await ds.query(`CREATE TABLE t (n int)`);

    const tx = ds.transaction(async (m) => {
      await m.query(`INSERT INTO t VALUES (1)`);
      proxy.hole(true);
      await m.query(`INSERT INTO t VALUES (2)`);
    });
    const err = await tx.then(() => null, (e: unknown) => e);
    expect(isDatabaseUnavailable(err), String(err)).toBe(true);

    proxy.hole(false);
    await ds.query(`INSERT INTO t VALUES (3)`);
    const rows = (await ds.query(`SELECT n FROM t ORDER BY n`)) as { n: number }[];
    expect(rows.map((r) => r.n)).toEqual([3]);
  });

  it("bounds the export's reads on its own thread too, which serves again once the network does", { timeout: 60_000 }, async () => {
    const db = await scratchDatabase(ADMIN as string, "svc_qbound_export");
    closers.push(() => db.drop());
    const proxy = await holeableProxy(db.url);
    const ds = await openDataSource({ url: proxy.url, queryTimeoutMs: 500, poolSize: 2 });
    closers.push(() => ds.destroy());
    const read = async (): Promise<string> => {
      let text = "";
      for await (const b of copyExportCsv(ds, "acc_none")!) text += b.toString("utf8");
      return text;
    };
    expect(await read()).toMatch(/^id,created_at,[^\n]*\r\n$/); // the thread's connection is open now

    proxy.hole(true);
    const started = Date.now();
    const err = await read().then(() => null, (e: unknown) => e);
    expect(isDatabaseUnavailable(err), String(err)).toBe(true);
    expect(Date.now() - started).toBeLessThan(5_000);

    proxy.hole(false);
    expect(await read()).toMatch(/^id,created_at,/);
  });
});
