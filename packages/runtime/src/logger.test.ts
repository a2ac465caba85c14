import { Writable } from "node:stream";
import { openDataSource } from "@svc/persistence";
import { QueryFailedError } from "typeorm";
import { describe, expect, it } from "vitest";
import { createLogger, redactSecrets } from "./logger.js";

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

describe("redactSecrets", () => {
  const lines = () => {
    let out = "";
    const logger = createLogger("info", new Writable({ write: (chunk: Buffer, _e, cb) => ((out += chunk.toString()), cb()) }));
    return { logger, read: () => out.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>) };
  };

  it("blanks secret headers where requests put them, and credential or secret-setting names at the top or one object down", () => {
    const { logger, read } = lines();
    logger.info({ req: { method: "GET", headers: { authorization: "Bearer a", "x-api-key": "b", accept: "*/*" }, token: "c" }, res: { headers: { "set-cookie": "d" } }, headers: { cookie: "e", "x-slack-signature": "f", password: "g", host: "h" } }, "request");
    logger.info({ apiKey: "i", SVC_AUDIT_KEY: "j", config: { TELEGRAM_BOT_TOKEN: "k", PORT: 3000 }, nested: { deeper: { password: "kept: two objects down" } } }, "fields");
    const [a, b] = read();
    expect(a).toMatchObject({
      req: { method: "GET", headers: { authorization: "[redacted]", "x-api-key": "[redacted]", accept: "*/*" }, token: "[redacted]" },
      res: { headers: { "set-cookie": "[redacted]" } },
      headers: { cookie: "[redacted]", "x-slack-signature": "[redacted]", password: "[redacted]", host: "h" },
    });
    expect(b).toMatchObject({ apiKey: "[redacted]", SVC_AUDIT_KEY: "[redacted]", config: { TELEGRAM_BOT_TOKEN: "[redacted]", PORT: 3000 }, nested: { deeper: { password: "kept: two objects down" } } });
  });

  it("never changes the caller's objects, keeps an error an error, and hands back a line without secrets as it is", () => {
    const headers = { authorization: "Bearer a" };
    const line = { req: { headers }, token: "t" };
    const out = redactSecrets(line);
    expect(line).toEqual({ req: { headers: { authorization: "Bearer a" } }, token: "t" });
    expect(out).toEqual({ req: { headers: { authorization: "[redacted]" } }, token: "[redacted]" });
    const err = Object.assign(new Error("boom"), { password: "p" });
    const e = redactSecrets({ err }).err as Error & { password: string };
    expect(e).toBeInstanceOf(Error);
    expect([e.message, e.password, err.password]).toEqual(["boom", "[redacted]", "p"]);
    const plain = { request_id: "req_1", method: "POST", path: "/v1/screen", status: 200, ms: 3 };
    expect(redactSecrets(plain)).toBe(plain);
  });

  it("blanks secrets in children's bindings (a child's child, bindings set later, a child's own formatter)", () => {
    const { logger, read } = lines();
    logger.child({ token: "secret-binding", request_id: "req_2" }).info("child");
    logger.child({ request_id: "req_3" }).child({ nested: { password: "p-two" } }).info("grandchild");
    const later = logger.child({ request_id: "req_4" });
    later.setBindings({ secret: "set-later" });
    later.info("set later");
    logger.child({}, { formatters: { log: (o: object) => ({ ...o, extra: 1 }) } }).info({ apiKey: "own-formatter" }, "own formatter");
    const [a, b, c, d] = read();
    expect(a).toMatchObject({ token: "[redacted]", request_id: "req_2" });
    expect(b).toMatchObject({ request_id: "req_3", nested: { password: "[redacted]" } });
    expect(c).toMatchObject({ request_id: "req_4", secret: "[redacted]" });
    expect(d).toMatchObject({ apiKey: "[redacted]", extra: 1 });
  });

  it("blanks objects a message interpolates, and an error's own secret fields, written through the logger", () => {
    const { logger, read } = lines();
    logger.info("settings %j", { token: "interpolated", a: { password: "p-three" } });
    logger.error(Object.assign(new Error("boom"), { password: "err-secret" }));
    const out = JSON.stringify(read());
    for (const s of ["interpolated", "p-three", "err-secret"]) expect(out).not.toContain(s);
    expect(out).toContain("boom");
  });

  it("copies frozen, read-only and accessor-held values instead of writing to them or calling their setters", () => {
    let stored = "accessor-secret";
    const withAccessor = Object.defineProperty({}, "token", { get: () => stored, set: (v: string) => (stored = v), enumerable: true });
    const readOnly = Object.defineProperty({}, "token", { value: "read-only-secret", enumerable: true, writable: false });
    const line = { config: Object.freeze({ TELEGRAM_BOT_TOKEN: "frozen-secret" }), req: Object.freeze({ headers: Object.freeze({ authorization: "Bearer frozen" }) }), a: withAccessor, b: readOnly };
    const out = JSON.stringify(redactSecrets(line));
    for (const s of ["frozen-secret", "Bearer frozen", "accessor-secret", "read-only-secret"]) expect(out).not.toContain(s);
    expect(stored).toBe("accessor-secret");
    expect(readOnly).toEqual({ token: "read-only-secret" });
  });
});
