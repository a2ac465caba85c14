// The real API process (`apps/api/dist/main.js`, compiled) on a fresh database: the bootstrap key notice
// goes to stderr, never into the JSON log stream on stdout; and SIGTERM with ~100 requests in
// flight answers every request it accepted (and stores its check) before the database closes.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { openDataSource, scratchDatabase } from "@svc/persistence";
import { afterAll, describe, expect, it } from "vitest";
import { TEST_AUDIT_KEY } from "./test-support.js";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const engines = (["pglite", "postgres"] as const).filter((e) => e === "pglite" || process.env.TEST_DATABASE_URL);

type Outcome = { kind: "answered"; status: number; body: string } | { kind: "refused" } | { kind: "reset"; code: string };

const screen = (port: number, key: string, entity: string) => new Promise<Outcome>((resolve) => {
  const req = http.request({ host: "127.0.0.1", port, path: "/v1/screen", method: "POST", agent: false, headers: { "content-type": "application/json", "x-api-key": key } }, (res) => {
    let body = "";
    res.setEncoding("utf8").on("data", (d: string) => (body += d));
    res.on("end", () => resolve({ kind: "answered", status: res.statusCode ?? 0, body }));
    res.on("error", (e: NodeJS.ErrnoException) => resolve({ kind: "reset", code: e.code ?? e.message }));
  });
  req.on("error", (e: NodeJS.ErrnoException) => resolve(e.code === "ECONNREFUSED" ? { kind: "refused" } : { kind: "reset", code: e.code ?? e.message }));
  req.end(JSON.stringify({ entity_value: entity }));
});

const children = new Set<ChildProcess>();
afterAll(() => {
  for (const c of children) c.kill("SIGKILL");
});

describe.each(engines)("the API process on %s", (engine) => {
  it("prints the bootstrap key on stderr only, and on SIGTERM answers every accepted request before closing the database", { timeout: 180_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-shutdown-"));
    const pg = engine === "postgres" ? await scratchDatabase(process.env.TEST_DATABASE_URL as string) : null;
    try {
      const env: NodeJS.ProcessEnv = { ...process.env, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info", SVC_DATA_DIR: dir };
      for (const k of ["DATABASE_URL", "SVC_BOOTSTRAP_KEY"]) delete env[k];
      // Server mode seals audit records with a key every replica shares.
      if (pg) Object.assign(env, { DATABASE_URL: pg.url, SVC_AUDIT_KEY: TEST_AUDIT_KEY });
      const child = spawn(process.execPath, ["apps/api/dist/main.js"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
      children.add(child);
      let stdout = "";
      let stderr = "";
      child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
      child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
      const exited = new Promise<number | null>((r) => child.once("exit", (code) => (children.delete(child), r(code))));
      const port = await new Promise<number>((resolve, reject) => {
        const timer = setInterval(() => {
          const m = /"port":(\d+),[^\n]*"svc API listening"/.exec(stdout);
          if (m) {
            clearInterval(timer);
            resolve(Number(m[1]));
          } else if (child.exitCode !== null) {
            clearInterval(timer);
            reject(new Error(`the API exited: ${stderr}`));
          }
        }, 50);
      });

      // The key: on stderr, for the human; nowhere in the log stream, which stays JSON lines.
      const key = /Admin API key \(shown once, keep it safe\):\s+(svc_live_\w+)/.exec(stderr)?.[1] ?? "";
      expect(key, stderr).toMatch(/^svc_live_/);
      expect(stdout).not.toContain(key);
      expect(stdout).not.toContain("Admin API key");
      for (const line of stdout.split("\n").filter(Boolean)) expect(() => JSON.parse(line), line).not.toThrow();

      // ~100 requests in flight; SIGTERM once the first answers are back; more arrive after it.
      const before = Array.from({ length: 100 }, (_, i) => screen(port, key, `shop-${i}.shutdown-test.com`));
      let answered = 0;
      for (const p of before) void p.then(() => answered++);
      while (answered < 5) await new Promise((r) => setTimeout(r, 5));
      child.kill("SIGTERM");
      const after = Array.from({ length: 20 }, (_, i) => screen(port, key, `late-${i}.shutdown-test.com`));
      const outcomes = await Promise.all([...before, ...after]);
      expect(await exited).toBe(0);

      const resets = outcomes.filter((o) => o.kind === "reset");
      const resetAt = outcomes.flatMap((o, i) => (o.kind === "reset" ? [i] : []));
      expect(resets, `reset: ${resetAt.join(",")} ${JSON.stringify(resets.slice(0, 2))}\n${stdout.split("\n").filter((l) => /shutting|grace|stopped/.test(l)).join("\n")}`).toEqual([]);
      // Everything sent before the signal was accepted and answered; what came after was answered,
      // or refused by an answer saying nothing was done, or (once the listener closed) refused.
      const replies = outcomes.flatMap((o) => (o.kind === "answered" ? [o] : []));
      expect(outcomes.slice(0, 100).every((o) => o.kind === "answered" && o.status === 200), JSON.stringify(outcomes.slice(0, 100).find((o) => o.kind !== "answered" || o.status !== 200))).toBe(true);
      for (const o of replies.filter((x) => x.status !== 200)) expect(o).toMatchObject({ status: 503, body: expect.stringContaining('"code":"server.shutting_down"') });
      const ok = replies.filter((o) => o.status === 200);
      const ids = ok.map((o) => (JSON.parse(o.body) as { id: string }).id);

      // Every answered check is in the database.
      const ds = await openDataSource(pg ? { url: pg.url } : { dataDir: join(dir, "pgdata") });
      try {
        const rows = (await ds.query(`SELECT id FROM checks WHERE id = ANY($1)`, [ids])) as { id: string }[];
        expect(rows.length).toBe(ids.length);
      } finally {
        await ds.destroy();
      }
      expect(stdout).toContain("shutting down");
    } finally {
      await pg?.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
