// Test-only module (imported by *.test.ts, not exported by the package).
import http from "node:http";
import type { AddressInfo } from "node:net";
// The adapters here run on the schema that @svc/persistence's migrations create: tests (only)
// open a migrated database through it. Production code never imports another adapter.
// eslint-disable-next-line @nx/enforce-module-boundaries -- test-only, see above
import { openDataSource, scratchDatabase } from "@svc/persistence";
import type { DataSource } from "typeorm";

export type Engine = "pglite" | "postgres";
/** PGlite always; PostgreSQL when TEST_DATABASE_URL is set. */
export const ENGINES: Engine[] = (["pglite", "postgres"] as const).filter((e) => e === "pglite" || !!process.env.TEST_DATABASE_URL);

export interface TestDb {
  readonly ds: DataSource;
  /** The database's URL (PostgreSQL only). */
  readonly url: string | null;
  close(): Promise<void>;
}

/** A migrated database: in-memory PGlite, or a fresh `svc_test_<random>` database next to TEST_DATABASE_URL, dropped on close. */
export async function openTestDb(engine: Engine): Promise<TestDb> {
  if (engine === "pglite") {
    const ds = await openDataSource();
    return { ds, url: null, close: () => ds.destroy() };
  }
  const db = await scratchDatabase(process.env.TEST_DATABASE_URL as string);
  const ds = await openDataSource({ url: db.url });
  return {
    ds,
    url: db.url,
    async close() {
      await ds.destroy().catch(() => {});
      await db.drop();
    },
  };
}

/** A second DataSource on the same PostgreSQL database: another process, as far as the database can tell. */
export const openDataSourceAt = (url: string): Promise<DataSource> => openDataSource({ url });

export interface ReceivedHook {
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly at: number;
  readonly path: string;
}

export interface Receiver {
  readonly url: string;
  readonly port: number;
  readonly received: ReceivedHook[];
  /** Sets the answer for the next requests. */
  answer(fn: (req: http.IncomingMessage, res: http.ServerResponse) => void): void;
  close(): Promise<void>;
}

/** A webhook receiver on a loopback address; answers 204 unless told otherwise. */
export async function startReceiver(host = "127.0.0.1"): Promise<Receiver> {
  const received: ReceivedHook[] = [];
  let handler: (req: http.IncomingMessage, res: http.ServerResponse) => void = (_req, res) => {
    res.statusCode = 204;
    res.end();
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : String(v)]));
      received.push({ headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now(), path: req.url ?? "/" });
      handler(req, res);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, host, r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${port}/hooks`,
    port,
    received,
    answer(fn) {
      handler = fn;
    },
    close: () => new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}

/** `ds`, counting the statements sent through its `query` (what an idle loop would send). */
export function countingQueries(ds: DataSource): { readonly ds: DataSource; count(): number } {
  let n = 0;
  const counted = new Proxy(ds, {
    get(target, key, receiver) {
      const v = Reflect.get(target, key, receiver) as unknown;
      if (key === "query") return (...args: Parameters<DataSource["query"]>) => (n++, target.query(...args));
      return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  return { ds: counted, count: () => n };
}
