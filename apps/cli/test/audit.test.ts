// `svc audit verify` through the real binary: locally on a data directory and remotely against
// `svc serve` with an operator key; then one record is edited directly in the database and the
// command exits 1 naming it. The audit key file is made by the first process and reused by every
// later one (a new key would leave the earlier records unverifiable).
// Each step starts PGlite in a new process (seconds each, more on a busy machine): generous timeouts.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDataSource } from "@svc/persistence";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, cleanEnv, svc } from "./spawn.js";

let dir: string;
let data: string;
let key = "";
let server: ChildProcess | null = null;
const keyFile = () => readFileSync(join(data, "audit.key"), "utf8");

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "svc-audit-"));
  data = join(dir, "data");
});
afterAll(() => {
  server?.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

describe.sequential("svc audit verify", { timeout: 400_000 }, () => {
  let firstKey = "";
  let ids: string[] = [];

  it("exits 0 on an intact chain, locally; the key file is made once, beside the database", async () => {
    const created = await svc(["keys", "create", "--json", "--data-dir", data]);
    expect(created.code, created.stderr).toBe(0);
    key = (JSON.parse(created.stdout) as { key: string }).key;
    firstKey = keyFile();
    expect(firstKey.trim()).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(join(data, "audit.key")).mode & 0o777).toBe(0o600);

    const checked = await svc(["check", "paypa1.com", "google.com", "evil-login-paypal.com", "--db", "--data-dir", data, "--json"]);
    expect(checked.code, checked.stderr).toBe(0);
    ids = (JSON.parse(checked.stdout) as { id: string }[]).map((v) => v.id);
    expect(ids).toHaveLength(3);

    const ok = await svc(["audit", "verify", "--data-dir", data]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/^ok: audit chain of acc_admin intact, 3 records verified \(PGlite at /m);
    expect(keyFile()).toBe(firstKey);
  });

  it("verifies remotely with --url and an operator key", async () => {
    let err = "";
    server = spawn(process.execPath, [BIN, "serve", "--port", "0", "--host", "127.0.0.1", "--data-dir", data], { env: cleanEnv({ LOG_LEVEL: "warn" }), stdio: ["ignore", "ignore", "pipe"] });
    server.stderr?.setEncoding("utf8").on("data", (d: string) => (err += d));
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`serve did not start: ${err}`)), 180_000);
      server?.stderr?.on("data", () => {
        const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(err);
        if (m) {
          clearTimeout(timer);
          resolve(m[1] as string);
        }
      });
      server?.once("exit", (c) => reject(new Error(`serve exited ${c}: ${err}`)));
    });
    const r = await svc(["audit", "verify", "--url", url, "--key", key, "--account", "acc_admin", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ ok: true, account_id: "acc_admin", checked: 3, legacy: 0, first_bad: null });
    const exited = new Promise((resolve) => server?.once("exit", resolve));
    server.kill("SIGINT");
    await exited;
    server = null;
    expect(keyFile()).toBe(firstKey);
  });

  it("exits 1 naming the record whose risk_score was edited in the database", async () => {
    const ds = await openDataSource({ dataDir: join(data, "pgdata") });
    try {
      await ds.query(`UPDATE checks SET risk_score = 0, risk_level = 'low' WHERE id = $1`, [ids[2]]);
    } finally {
      await ds.destroy();
    }
    const bad = await svc(["audit", "verify", "--data-dir", data]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain(`BROKEN: audit chain of acc_admin fails at record ${ids[2]}: hash_mismatch`);
    expect(keyFile()).toBe(firstKey);
  });
});
