// One process per embedded database, whoever opened it first: `npm start` (the API) holds its data
// directory, so `svc keys create --data-dir` on it is refused in one line and writes nothing; keys
// are managed over HTTP instead (`svc keys … --url`). Then the lock's life: released on close, so
// commands run one after another, and a stale one (its holder killed) taken over.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanEnv, svc } from "./spawn.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const BOOTSTRAP = "bootstrap-secret-for-the-keys-test-0123456789";
let dir: string;
let data: string;
let api: ChildProcess | null = null;
let apiOut = "";
let url = "";
let adminKey = "";

/** `npm start` on `data`: the API with its in-process worker. */
function startApi(port: number): { child: ChildProcess; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ["apps/api/dist/main.js"], {
    cwd: ROOT,
    env: cleanEnv({ SVC_DATA_DIR: data, SVC_BOOTSTRAP_KEY: BOOTSTRAP, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "warn" }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.setEncoding("utf8").on("data", (d: string) => (apiOut += d));
  child.stderr?.setEncoding("utf8").on("data", (d: string) => (apiOut += d));
  return { child, exited: new Promise((r) => child.once("exit", r)) };
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "svc-keys-lock-"));
  data = join(dir, "data");
});
afterAll(() => {
  api?.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

// Starting the API and each CLI process costs seconds of CPU; on a busy 2-core machine, minutes.
describe.sequential("the embedded database lock, and keys over --url", { timeout: 420_000 }, () => {
  it("while `npm start` runs, `svc keys create --data-dir` and a second API are refused in one line", async () => {
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    url = `http://127.0.0.1:${port}`;
    const started = startApi(port);
    api = started.child;
    const deadline = Date.now() + 180_000;
    while (!(await fetch(`${url}/healthz`).then((r) => r.ok, () => false))) {
      if (api.exitCode !== null || Date.now() > deadline) throw new Error(`the API did not start: ${apiOut}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    const { apiKeyFromSecret } = await import("@svc/server-ports");
    adminKey = apiKeyFromSecret(BOOTSTRAP);

    // Both at once: each is refused before opening anything.
    const second = spawn(process.execPath, ["apps/api/dist/main.js"], { cwd: ROOT, env: cleanEnv({ SVC_DATA_DIR: data, PORT: "0", LOG_LEVEL: "warn" }), stdio: ["ignore", "pipe", "pipe"] });
    let secondErr = "";
    second.stderr?.setEncoding("utf8").on("data", (d: string) => (secondErr += d));
    const [refused, code] = await Promise.all([svc(["keys", "create", "--data-dir", data, "--json"]), new Promise<number | null>((r) => second.once("exit", r))]);
    expect(refused.code).toBe(3);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toBe(`error: the data directory ${data} is in use by another svc process (pid ${api.pid}) serving ${url}; use --url ${url} --key <key> (or SVC_URL/SVC_API_KEY)\n`);
    expect(code).toBe(1);
    expect(secondErr).toBe(`svc: the data directory ${data} is in use by another svc process (pid ${api.pid}) serving ${url}; stop it, or give this server another SVC_DATA_DIR (or DATABASE_URL)\n`);

    // Nothing was written: the admin account still has only its bootstrap key, and the API still answers.
    const res = await fetch(`${url}/v1/keys`, { headers: { "x-api-key": adminKey } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { items: unknown[] }).items).toHaveLength(1);
  });

  it("svc keys create|list|revoke --url: the operator makes a customer; the customer manages only its own keys", async () => {
    const made = await svc(["keys", "create", "--new-account", "Acme Ltd", "--plan", "starter", "--name", "acme-ci", "--json", "--url", url, "--key", adminKey]);
    expect(made.code, made.stderr).toBe(0);
    const acme = JSON.parse(made.stdout) as { id: string; key: string; account_id: string; plan: string; name: string };
    expect(acme).toMatchObject({ plan: "starter", name: "acme-ci", account_id: expect.stringMatching(/^acc_/) });
    expect(acme.key).toMatch(/^svc_live_/);

    const env = { SVC_URL: url, SVC_API_KEY: acme.key };
    const second = await svc(["keys", "create", "--name", "laptop"], { env });
    expect(second.code, second.stderr).toBe(0);
    const laptopKey = second.stdout.trim();
    expect(laptopKey).toMatch(/^svc_live_/);
    expect(second.stderr).toMatch(new RegExp(`^Created key_\\w+ on account ${acme.account_id} \\(plan starter; ${url.replace(/\./g, "\\.")}\\)\\.`));

    // Another account's keys: the admin's are not the customer's to see or revoke.
    const [listed, foreign] = await Promise.all([svc(["keys", "list"], { env }), svc(["keys", "list", "--account", "acc_admin"], { env })]);
    expect(foreign.code).toBe(3);
    expect(foreign.stderr).toContain("(auth.operator_only)");
    expect(listed.code, listed.stderr).toBe(0);
    const lines = listed.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^ID\s+KEY\s+NAME\s+PLAN\s+CREATED \(UTC\)\s+STATUS$/);
    expect(lines.slice(1).map((l) => l.split(/\s{2,}/)[2])).toEqual(["acme-ci", "laptop"]);
    expect(listed.stdout).not.toContain(acme.key);
    const laptopId = /^(key_\w+)\s.*laptop/m.exec(listed.stdout)?.[1] as string;

    const [revoked, unknown] = await Promise.all([svc(["keys", "revoke", laptopId], { env }), svc(["keys", "revoke", "key_unknown"], { env })]);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toBe(`Revoked ${laptopId}.\n`);
    const refused = await svc(["keys", "list", "--url", url, "--key", laptopKey]);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain("revoked");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("No key with this id");
  });

  it("after the API stops, the lock is released: CLI commands run one after another; a stale lock is taken over", async () => {
    api?.kill("SIGTERM");
    await new Promise((r) => api?.once("exit", r));
    api = null;
    const lockFile = join(data, "pgdata", "svc.lock");
    expect(existsSync(lockFile)).toBe(false);

    const created = await svc(["keys", "create", "--name", "local", "--json", "--data-dir", data]);
    expect(created.code, created.stderr).toBe(0);
    expect(existsSync(lockFile)).toBe(false);

    // Its holder was killed (SIGKILL leaves the file behind): a pid that no longer runs.
    const dead = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
    await new Promise((r) => dead.once("exit", r));
    writeFileSync(lockFile, `${dead.pid}\n`);
    const after = await svc(["keys", "list", "--json", "--data-dir", data]);
    expect(after.code, after.stderr).toBe(0);
    expect((JSON.parse(after.stdout) as { name: string | null }[]).map((k) => k.name)).toContain("local");
    expect(existsSync(lockFile)).toBe(false);
  });
});
