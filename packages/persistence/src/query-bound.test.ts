// Server mode with a query bound: a query the network never answers closes its connection, the
// transaction it was in is rolled back (never committed by the pool's next user), and the pool
// serves again once the network does.
import net from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { openDataSource } from "./data-source.js";
import { scratchDatabase } from "./scratch-database.js";
import { isDatabaseUnavailable } from "./unavailable.js";

const ADMIN = process.env.TEST_DATABASE_URL;
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of closers.reverse()) await c();
});

describe.skipIf(!ADMIN)("a bounded query on PostgreSQL", () => {
  it("closes its connection on no answer; the half transaction never commits; the pool recovers", { timeout: 30_000 }, async () => {
    const db = await scratchDatabase(ADMIN as string, "svc_qbound");
    closers.push(() => db.drop());
    const target = new URL(db.url);
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
      pairs.add([c, u]);
      const end = () => {
        c.destroy();
        u.destroy();
      };
      c.on("error", end).on("close", end);
      u.on("error", end).on("close", end);
    });
    await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r));
    closers.push(() => new Promise<void>((r) => proxy.close(() => r())));
    const via = new URL(db.url);
    via.host = `127.0.0.1:${(proxy.address() as net.AddressInfo).port}`;
    const ds = await openDataSource({ url: via.toString(), queryTimeoutMs: 500, poolSize: 2 });
    closers.push(() => ds.destroy());
    await ds.query(`CREATE TABLE t (n int)`);

    const tx = ds.transaction(async (m) => {
      await m.query(`INSERT INTO t VALUES (1)`);
      holed = true;
      for (const [c, u] of pairs) {
        c.pause();
        u.pause();
      }
      await m.query(`INSERT INTO t VALUES (2)`);
    });
    const err = await tx.then(() => null, (e: unknown) => e);
    expect(isDatabaseUnavailable(err), String(err)).toBe(true);

    holed = false;
    for (const [c, u] of pairs) {
      c.resume();
      u.resume();
    }
    await ds.query(`INSERT INTO t VALUES (3)`);
    const rows = (await ds.query(`SELECT n FROM t ORDER BY n`)) as { n: number }[];
    expect(rows.map((r) => r.n)).toEqual([3]);
  });
});
