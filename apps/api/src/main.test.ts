// The API and worker processes refuse a bad configuration before opening anything: one line on
// stderr naming each variable, exit code 2.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
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
