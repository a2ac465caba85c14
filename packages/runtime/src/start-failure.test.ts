import { describe, expect, it } from "vitest";
import { listenFailureLine, startFailureLine } from "./start-failure.js";

const err = (message: string, props: Record<string, unknown>): Error => Object.assign(new Error(message), props);

describe("why a process could not start, in one line", () => {
  const DATABASE_URL = "postgres://svc:hunter2secret@db.internal:5432/svc";

  it("a PostgreSQL that does not answer, refuses the login or has no such database names DATABASE_URL, never its password", () => {
    for (const [e, tail] of [
      [err("connect ECONNREFUSED 10.0.0.5:5432", { code: "ECONNREFUSED" }), "connect ECONNREFUSED 10.0.0.5:5432"],
      [err("password authentication failed for user \"svc\"", { code: "28P01" }), "password authentication failed for user \"svc\""],
      [err("database \"svc\" does not exist", { code: "3D000" }), "database \"svc\" does not exist"],
    ] as const) {
      expect(startFailureLine("svc worker", e, { DATABASE_URL })).toBe(`svc worker: cannot open the database at db.internal:5432/svc (DATABASE_URL): ${tail}`);
    }
  });

  it("a data directory that cannot be written names SVC_DATA_DIR", () => {
    const e = err("EACCES: permission denied, mkdir '/var/lib/svc/data'", { code: "EACCES", path: "/var/lib/svc/data" });
    expect(startFailureLine("svc", e, {})).toBe("svc: cannot write /var/lib/svc/data (SVC_DATA_DIR: a directory this user may create and write): EACCES: permission denied, mkdir '/var/lib/svc/data'");
  });

  it("anything else is unexpected and keeps its stack trace", () => {
    const e = new TypeError("boom");
    expect(startFailureLine("svc", e, { DATABASE_URL })).toBe(`svc failed to start: ${e.stack}`);
    // A network code without DATABASE_URL is not about the database.
    expect(startFailureLine("svc", err("x", { code: "ECONNREFUSED" }), {})).toMatch(/^svc failed to start: Error: x\n/u);
  });

  it("a port in use or an unknown address names PORT and HOST", () => {
    expect(listenFailureLine("svc API", err("listen EADDRINUSE", { code: "EADDRINUSE" }), { HOST: "0.0.0.0", PORT: 8080 })).toBe("svc API: cannot listen on 0.0.0.0:8080: the port is in use by another process (EADDRINUSE); set PORT or HOST");
    expect(listenFailureLine("svc API", err("getaddrinfo ENOTFOUND x", { code: "ENOTFOUND" }), { HOST: "x", PORT: 1 })).toBe("svc API: cannot listen on x:1: this machine has no such address (ENOTFOUND); set PORT or HOST");
  });
});
