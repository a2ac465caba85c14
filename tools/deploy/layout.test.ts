// The deployment layout, run for real: a fresh directory with only the built dist/ trees, the
// package*.json files and the data the code reads (tools/deploy-layout.mjs), production
// dependencies installed from the lockfile (`npm ci --omit=dev`), then the API, the CLI, the
// worker and each bot started from there. A package the code imports at run time but that only
// a devDependency brings in is missing there, and this fails.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scratchDatabase, type ScratchDatabase } from "@svc/persistence";
import { devOnlyWorkspaces, runtimeImports } from "../check-deps.mjs";
import { ROOT, workspaces } from "../build.mjs";
import { layOut } from "../deploy-layout.mjs";

const run = promisify(execFile);
const PG_URL = process.env.TEST_DATABASE_URL;
const AUDIT_KEY = "the deployment layout test's audit key, 32+ chars";

let dir: string;
const children = new Set<ChildProcess>();

/** A process started in the layout; `output()` is its stdout and stderr so far. */
function start(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, args, { cwd: dir, env: { PATH: process.env.PATH ?? "", HOME: dir, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  children.add(child);
  let out = "";
  child.stdout?.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((r) => child.once("exit", (code) => (children.delete(child), r(code))));
  return { child, exited, output: () => out };
}

async function waitFor<T>(what: string, probe: () => T | undefined | false, ms: number, output: () => string): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}; output:\n${output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Starts the API from the layout and resolves once it listens: its base URL and the admin key it printed (first start). */
async function startApi(env: Record<string, string>) {
  const p = start(["apps/api/dist/main.js"], { PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info", ...env });
  let exitCode: number | null | undefined;
  void p.exited.then((c) => (exitCode = c));
  const port = await waitFor("the API to listen", () => {
    if (exitCode !== undefined) throw new Error(`the API exited with ${exitCode}:\n${p.output()}`);
    for (const line of p.output().split("\n")) {
      if (!line.startsWith("{")) continue;
      const entry = JSON.parse(line) as { msg?: string; port?: number };
      if (entry.msg === "svc API listening") return entry.port;
    }
    return undefined;
  }, 240_000, p.output);
  const key = /svc_live_[A-Za-z0-9]+/.exec(p.output())?.[0];
  return { ...p, url: `http://127.0.0.1:${port}`, key };
}

async function stop(p: { child: ChildProcess; exited: Promise<number | null> }): Promise<number | null> {
  p.child.kill("SIGTERM");
  return p.exited;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "svc-deploy-"));
  await layOut(dir);
  await run("npm", ["ci", "--omit=dev", "--ignore-scripts", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: dir, timeout: 400_000 });
}, 420_000);

afterAll(() => {
  for (const c of children) c.kill("SIGKILL");
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("the deployment layout (dist/, package*.json, data; npm ci --omit=dev)", () => {
  it("holds no sources and no development tools, and every package the code imports at run time is installed", () => {
    expect(existsSync(join(dir, "apps/api/src"))).toBe(false);
    expect(existsSync(join(dir, "packages/core/src"))).toBe(false);
    expect(existsSync(join(dir, "tools"))).toBe(false);
    for (const tool of ["typescript", "vitest", "tsx", "esbuild", "nx"]) expect(existsSync(join(dir, "node_modules", tool)), tool).toBe(false);
    const missing: string[] = [];
    const all = workspaces();
    const testOnly = devOnlyWorkspaces(all);
    for (const ws of all.filter((w) => !testOnly.has(w))) {
      const rel = relative(ROOT, ws);
      for (const [name, file] of runtimeImports(ws)) {
        let found = false;
        for (let d = join(dir, rel); !found; d = dirname(d)) {
          found = existsSync(join(d, "node_modules", name, "package.json"));
          if (d === dir) break;
        }
        if (!found) missing.push(`${name} (imported by ${file})`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("the API on the embedded database answers /healthz, /readyz and POST /v1/screen; the CLI reports its version and checks through it", { timeout: 360_000 }, async () => {
    const api = await startApi({ SVC_DATA_DIR: join(dir, "data") });
    try {
      expect(api.key).toBeDefined();
      expect(await (await fetch(`${api.url}/healthz`)).json()).toEqual({ status: "ok" });
      expect((await fetch(`${api.url}/readyz`)).status).toBe(200);
      const screened = await fetch(`${api.url}/v1/screen`, { method: "POST", headers: { "x-api-key": api.key ?? "", "content-type": "application/json" }, body: JSON.stringify({ entity_value: "paypa1.com" }) });
      expect(screened.status).toBe(200);
      const verdict = (await screened.json()) as { entity: { value: string }; risk_level: string };
      expect(verdict.entity.value).toBe("paypa1.com");
      expect(verdict.risk_level).toMatch(/^(high|critical)$/);

      const version = await run(process.execPath, ["apps/cli/bin/svc.js", "--version"], { cwd: dir, env: { PATH: process.env.PATH ?? "", HOME: dir } });
      expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
      const check = await run(process.execPath, ["apps/cli/bin/svc.js", "check", "paypa1.com", "--url", api.url, "--json"], { cwd: dir, env: { PATH: process.env.PATH ?? "", HOME: dir, SVC_API_KEY: api.key ?? "", NO_COLOR: "1" } });
      const checked = JSON.parse(check.stdout) as { id: string; entity: { value: string }; risk_level: string };
      expect(checked.entity.value).toBe("paypa1.com");
      expect(checked.risk_level).toBe(verdict.risk_level);
    } finally {
      expect(await stop(api)).toBe(0);
    }
  });

  describe.skipIf(!PG_URL)("on PostgreSQL", () => {
    let db: ScratchDatabase;
    beforeAll(async () => {
      db = await scratchDatabase(PG_URL as string, "svc_deploy");
    });
    afterAll(async () => {
      for (const c of children) c.kill("SIGKILL");
      await db?.drop();
    });

    it("the API and the worker start from the layout; the worker says it is ready", { timeout: 360_000 }, async () => {
      const env = { DATABASE_URL: db.url, SVC_AUDIT_KEY: AUDIT_KEY, LOG_LEVEL: "info" };
      const api = await startApi(env);
      const worker = start(["apps/worker/dist/main.js"], env);
      try {
        let exitCode: number | null | undefined;
        void worker.exited.then((c) => (exitCode = c));
        await waitFor("the worker to start", () => {
          if (exitCode !== undefined) throw new Error(`the worker exited with ${exitCode}:\n${worker.output()}`);
          return worker.output().includes("svc worker started");
        }, 90_000, worker.output);
        expect((await fetch(`${api.url}/readyz`)).status).toBe(200);
      } finally {
        expect(await stop(worker)).toBe(0);
        expect(await stop(api)).toBe(0);
      }
    });
  });

  it.each([
    ["bot-discord", "DISCORD_TOKEN"],
    ["bot-slack", "SLACK_SIGNING_SECRET"],
    ["bot-telegram", "TELEGRAM_BOT_TOKEN"],
    ["bot-whatsapp", "WHATSAPP_ACCESS_TOKEN"],
  ])("%s without its credentials exits 2 naming %s", { timeout: 60_000 }, async (app, variable) => {
    const bot = start([`apps/${app}/dist/main.js`], {});
    const code = await bot.exited;
    expect(code).toBe(2);
    expect(bot.output()).toContain(variable);
    expect(bot.output()).not.toMatch(/ERR_MODULE_NOT_FOUND|Cannot find (package|module)/);
    expect(bot.output()).not.toContain("    at "); // one line, not a stack trace
  });

  // With credentials but no route to the platform (a closed port on this machine as its API):
  // one line saying so and exit 1, never a stack trace, never the token.
  const TELEGRAM_TOKEN = "123456789:AAEhBOweik6ad6PsWZRcXUgPaGFhqOClv5g";
  const DISCORD_TOKEN = `${Buffer.from("123456789012345678").toString("base64url")}.GhIjKl.abcdefghijklmnopqrstuvwxyz012345`;
  it.each([
    ["bot-telegram", { TELEGRAM_BOT_TOKEN: TELEGRAM_TOKEN }, "TELEGRAM_API_ROOT", TELEGRAM_TOKEN],
    ["bot-discord", { DISCORD_TOKEN }, "DISCORD_API_ROOT", DISCORD_TOKEN],
  ])("%s that cannot reach its platform exits 1 with one line, no stack trace, no token", { timeout: 120_000 }, async (app, credentials, rootVariable, token) => {
    const bot = start([`apps/${app}/dist/main.js`], { ...credentials, [rootVariable]: "http://127.0.0.1:1", SVC_DATA_DIR: "memory://", LOG_LEVEL: "silent" });
    expect(await bot.exited).toBe(1);
    expect(bot.output().trim().split("\n")).toHaveLength(1);
    expect(bot.output()).not.toContain("    at ");
    expect(bot.output()).not.toContain(token);
  });
});

