import { Writable } from "node:stream";
import { openDataSource } from "@svc/persistence";
import { QueryFailedError } from "typeorm";
import { expect, it } from "vitest";
import { createLogger } from "./logger.js";

it("logs a failing query's error with its code and SQL but without its parameters", { timeout: 120_000 }, async () => {
  const ds = await openDataSource({ dataDir: "memory://" });
  const secret = "svc_live_SECRET_VALUE_that_must_not_be_logged";
  let err: unknown;
  try {
    // A unique violation: PostgreSQL's `detail` repeats the value ("Key (id)=(...) already exists").
    await ds.query(`INSERT INTO accounts (id, name, plan, role, created_at) VALUES ($1, 'a', 'free', 'customer', now())`, [secret]);
    await ds.query(`INSERT INTO accounts (id, name, plan, role, created_at) VALUES ($1, 'a', 'free', 'customer', now())`, [secret]);
  } catch (e) {
    err = e;
  } finally {
    await ds.destroy();
  }
  expect(err).toBeInstanceOf(QueryFailedError);
  expect(JSON.stringify((err as { parameters?: unknown }).parameters)).toContain(secret); // the raw error does carry it
  let out = "";
  const logger = createLogger("info", new Writable({ write: (chunk: Buffer, _e, cb) => ((out += chunk.toString()), cb()) }));
  logger.error({ err, request_id: "req_1" }, "unhandled error");
  const line = JSON.parse(out) as { err: { type: string; query: string; driver: { code: string } } };
  expect(out).not.toContain(secret);
  expect(out).not.toContain("SECRET_VALUE");
  expect(line.err.type).toBe("QueryFailedError");
  expect(line.err.query).toContain("INSERT INTO accounts");
  expect(line.err.driver.code).toBe("23505");
});
