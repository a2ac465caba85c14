import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { type Clock } from "@svc/core";
import { apiKeyHint, formatApiKey, hashApiKey, type AccountRole, type Plan } from "@svc/server-ports";
import { scratchDatabase } from "@svc/persistence";
import { pino } from "pino";
import { createApp } from "./app.js";
import { loadConfig } from "@svc/runtime";
import { buildRuntime, type Runtime } from "./container.js";

/** A fresh, empty PostgreSQL database per test file on the server in TEST_DATABASE_URL, dropped afterwards. */
export const freshPostgres = (url: string): Promise<{ url: string; drop(): Promise<void> }> => scratchDatabase(url);

/** The audit key of server-mode test APIs (server mode requires one). */
export const TEST_AUDIT_KEY = "test audit key for server-mode tests only";

export interface TestApi {
  readonly runtime: Runtime;
  readonly app: ReturnType<typeof createApp>;
  /** An account with a fresh key on the given plan (a customer unless `role` says operator). */
  account(plan?: Plan, role?: AccountRole): Promise<{ accountId: string; key: string; keyId: string }>;
  /** Serves the app over HTTP on 127.0.0.1 (a free port; once): its base URL. `close()` stops it. */
  listen(): Promise<string>;
  close(): Promise<void>;
}

/** The real app on a real database: embedded PGlite (in memory), or PostgreSQL when a URL is given. */
export async function startTestApi(engine: "pglite" | "postgres", env: Record<string, string> = {}, options: { clock?: Clock } = {}): Promise<TestApi> {
  let pgDb: { url: string; drop(): Promise<void> } | null = null;
  if (engine === "postgres") pgDb = await freshPostgres(process.env.TEST_DATABASE_URL as string);
  const config = loadConfig({ SVC_DATA_DIR: "memory://", LOG_LEVEL: "silent", ...(pgDb ? { DATABASE_URL: pgDb.url, SVC_AUDIT_KEY: TEST_AUDIT_KEY } : {}), ...env });
  const runtime = await buildRuntime(config, { logger: pino({ level: "silent" }), ...(options.clock ? { clock: options.clock } : {}) });
  const app = createApp(runtime.services);
  let n = 0;
  let server: ServerType | null = null;
  return {
    runtime,
    app,
    async account(plan: Plan = "pro", role: AccountRole = "customer") {
      const s = runtime.services;
      const now = s.clock.now();
      const account = await s.accounts.create({ id: `acc_t${++n}_${randomBytes(3).toString("hex")}`, name: `test ${n}`, plan, role }, now);
      const key = formatApiKey(randomBytes(32));
      const rec = await s.keys.create({ account_id: account.id, key_hash: hashApiKey(key), prefix: apiKeyHint(key) }, now);
      return { accountId: account.id, key, keyId: rec.id };
    },
    async listen() {
      const s = (server ??= serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }));
      if (!s.listening) await new Promise<void>((r) => s.once("listening", () => r()));
      return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
    },
    async close() {
      const s = server;
      if (s) await new Promise<void>((r) => s.close(() => r()));
      await runtime.close();
      await pgDb?.drop();
    },
  };
}
