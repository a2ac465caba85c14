// The API and worker processes refuse a bad configuration before opening anything: one line on
// stderr naming each variable, exit code 2.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

function start(entry: string, env: Record<string, string>): { status: number | null; stderr: string; stdout: string } {
  // Only what the process needs to run (PATH, HOME), never the caller's svc settings.
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => k === "PATH" || k === "HOME")) as Record<string, string>;
  const r = spawnSync(process.execPath, [entry], { cwd: ROOT, env: { ...base, ...env }, encoding: "utf8", timeout: 90_000 });
  return { status: r.status, stderr: r.stderr, stdout: r.stdout };
}

describe("a bad configuration", () => {
  it("stops the API with one line naming each variable, exit code 2", () => {
    const r = start("apps/api/dist/main.js", { SVC_DATA_DIR: "memory://", PORT: "not-a-port", LOG_LEVEL: "loud", SVC_STRIPE_SECRET_KEY: "sk_test_abc" });
    expect(r.status).toBe(2);
    const lines = r.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^svc API: cannot start: /u);
    expect(lines[0]).toContain("PORT:");
    expect(lines[0]).toContain("; LOG_LEVEL:");
    expect(lines[0]).not.toContain("sk_test_abc");
    expect(r.stdout).toBe("");
  }, 120_000);

  it("stops the worker the same way", () => {
    const r = start("apps/worker/dist/main.js", { DATABASE_URL: "mysql://x", SVC_WORKER_CONCURRENCY: "0" });
    expect(r.status).toBe(2);
    const lines = r.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^svc worker: cannot start: /u);
    expect(lines[0]).toContain("DATABASE_URL: must be a postgres:// URL");
    expect(lines[0]).toContain("SVC_WORKER_CONCURRENCY: must be an integer from 1 to 64");
    expect(lines[0]).toContain("SVC_AUDIT_KEY: required");
  }, 120_000);
});

describe("a server that cannot start on what it was given", () => {
  const closedPort = async (): Promise<number> => new Promise((done) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const p = (s.address() as AddressInfo).port;
      s.close(() => done(p));
    });
  });
  const noStack = (text: string) => expect(text.split("\n").filter((l) => l.trimStart().startsWith("at "))).toEqual([]);

  it("a port in use: one line naming PORT and HOST, exit 1, no stack trace", async () => {
    const held = createServer();
    const port = await new Promise<number>((done) => held.listen(0, "127.0.0.1", () => done((held.address() as AddressInfo).port)));
    try {
      const r = start("apps/api/dist/main.js", { SVC_DATA_DIR: "memory://", HOST: "127.0.0.1", PORT: String(port), LOG_LEVEL: "silent" });
      expect(r.status).toBe(1);
      expect(r.stderr.trim().split("\n").at(-1)).toBe(`svc API: cannot listen on 127.0.0.1:${port}: the port is in use by another process (EADDRINUSE); set PORT or HOST`);
      noStack(r.stderr);
    } finally {
      held.close();
    }
  }, 120_000);

  it("a data directory that cannot be made: one line naming SVC_DATA_DIR, exit 1, no stack trace", () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-api-datadir-"));
    try {
      writeFileSync(join(dir, "a-file"), "");
      const r = start("apps/api/dist/main.js", { SVC_DATA_DIR: join(dir, "a-file", "svc"), PORT: "0", LOG_LEVEL: "silent", HOME: dir });
      expect(r.status).toBe(1);
      const lines = r.stderr.trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^svc: cannot write .*a-file\/svc \(SVC_DATA_DIR: .*ENOTDIR/u);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it("a PostgreSQL that does not answer: one line naming DATABASE_URL without its password, exit 1 (API and worker)", async () => {
    const port = await closedPort();
    const env = { DATABASE_URL: `postgres://svc:hunter2secret@127.0.0.1:${port}/svc`, SVC_AUDIT_KEY: "k".repeat(32), LOG_LEVEL: "silent" };
    for (const [entry, name] of [["apps/api/dist/main.js", "svc"], ["apps/worker/dist/main.js", "svc worker"]] as const) {
      const r = start(entry, env);
      expect(r.status).toBe(1);
      const lines = r.stderr.trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`^${name}: cannot open the database at 127\\.0\\.0\\.1:${port}/svc \\(DATABASE_URL\\): .*ECONNREFUSED`, "u"));
      expect(r.stderr).not.toContain("hunter2secret");
    }
  }, 120_000);
});

describe("npm start under a process manager", () => {
  // A manager that signals only the process it started (systemd's KillMode=process, pm2, a
  // container whose command is `npm start`) reaches npm; npm passes the signal to its script's
  // shell, which must be the API itself (`exec`), or the API would run on, orphaned.
  it("SIGTERM to npm stops the API it started", async () => {
    const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => k === "PATH" || k === "HOME")) as Record<string, string>;
    const npm = spawn("npm", ["start"], { cwd: ROOT, env: { ...base, SVC_DATA_DIR: "memory://", PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info" }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    npm.stdout.on("data", (d: Buffer) => (out += d.toString()));
    npm.stderr.on("data", (d: Buffer) => (out += d.toString()));
    const alive = (pid: number): boolean => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    let api = 0;
    try {
      for (const until = Date.now() + 90_000; api === 0; await new Promise((r) => setTimeout(r, 50))) {
        if (npm.exitCode !== null || Date.now() > until) throw new Error(`npm start did not serve: ${out}`);
        const line = out.split("\n").find((l) => l.includes('"svc API listening"'));
        if (line) api = (JSON.parse(line) as { pid: number }).pid;
      }
      npm.kill("SIGTERM");
      for (const until = Date.now() + 30_000; alive(api) && Date.now() < until; ) await new Promise((r) => setTimeout(r, 50));
      expect(alive(api)).toBe(false);
      expect(out).toContain('"msg":"stopped"');
    } finally {
      npm.kill("SIGKILL");
      if (api && alive(api)) process.kill(api, "SIGKILL");
    }
  }, 120_000);
});

describe("memory at start-up", () => {
  // Decisions 0090 and 0099: the modules load with V8's young generation held at its starting
  // size, and what starting left is collected before the API listens.
  it("serves with a young generation of a few MB and the buffers of starting collected", async () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-api-memory-"));
    const probe = join(dir, "probe.mjs");
    writeFileSync(probe, `import { getHeapSpaceStatistics } from "node:v8";
process.on("SIGUSR2", () => {
  const mb = (n) => n / 1048576;
  const space = (name) => getHeapSpaceStatistics().find((s) => s.space_name === name);
  process.stderr.write("probe " + JSON.stringify({ newSpace: mb(space("new_space").physical_space_size), arrayBuffers: mb(process.memoryUsage().arrayBuffers) }) + "\\n");
});
`);
    const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => k === "PATH" || k === "HOME")) as Record<string, string>;
    const child = spawn(process.execPath, [`--import=${pathToFileURL(probe).href}`, "apps/api/dist/main.js"], {
      cwd: ROOT, env: { ...base, SVC_DATA_DIR: "memory://", PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info" }, stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    try {
      const waitFor = async (seen: () => boolean) => {
        while (!seen()) {
          if (child.exitCode !== null) throw new Error(`the API exited with ${child.exitCode}: ${out}${err}`);
          await new Promise((r) => setTimeout(r, 20));
        }
      };
      await waitFor(() => out.includes('"svc API listening"'));
      child.kill("SIGUSR2");
      await waitFor(() => /probe \{.*\}\n/.test(err));
      const probed = JSON.parse(/probe (\{.*\})\n/.exec(err)?.[1] ?? "{}") as { newSpace: number; arrayBuffers: number };
      // Loading the modules before the flag was set grew it to 16 MB; it starts at 1 MB.
      expect(probed.newSpace).toBeLessThanOrEqual(4);
      // Buffers in use (about 58 MB here: the in-memory database's files); without the collection,
      // also the ones creating the database dropped (about 145 MB in all).
      expect(probed.arrayBuffers).toBeLessThan(100);
    } finally {
      child.kill("SIGTERM");
      if (child.exitCode === null) await new Promise((r) => child.once("exit", r));
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
