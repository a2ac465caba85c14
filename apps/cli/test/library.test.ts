// The embedded library as a user outside the monorepo gets it: tools/pack-library.mjs builds
// @svc/core and @svc/intel to JavaScript + declarations and packs them; a copy of
// examples/embedded installs the tarballs (dependencies from the local npm cache where it has them, else the registry) and
// runs its three lines; a TypeScript file type-checks against the installed declarations.
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, expect, it } from "vitest";

const run = promisify(execFile);
const repo = resolve(fileURLToPath(new URL("../../..", import.meta.url)));
const work = mkdtempSync(join(tmpdir(), "svc-library-"));
// (Removing the installed copy can take a while on a busy disk.)
afterAll(() => rmSync(work, { recursive: true, force: true }), 120_000);

it("packs the library and the example screens in-process from the tarballs", { timeout: 300_000 }, async () => {
  const packed = await run(process.execPath, [join(repo, "tools", "pack-library.mjs"), "--out", join(work, "pack")], { cwd: repo });
  const tarballs = JSON.parse(packed.stdout.trim().split("\n").pop() as string) as { core: string; intel: string };
  expect(tarballs.core).toMatch(/svc-core-\d+\.\d+\.\d+\.tgz$/);

  const app = join(work, "embedded");
  cpSync(join(repo, "examples", "embedded"), app, { recursive: true, filter: (src) => !src.includes("node_modules") });
  const manifest = JSON.parse(readFileSync(join(app, "package.json"), "utf8")) as { dependencies: Record<string, string> };
  expect(manifest.dependencies["@svc/core"]).toMatch(/^file:/);
  manifest.dependencies = { "@svc/core": `file:${tarballs.core}`, "@svc/intel": `file:${tarballs.intel}` };
  writeFileSync(join(app, "package.json"), JSON.stringify(manifest, null, 2));
  await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: app, env: { ...process.env, npm_config_workspaces: "false" } });

  const installed = JSON.parse(readFileSync(join(app, "node_modules", "@svc", "core", "package.json"), "utf8")) as Record<string, unknown>;
  expect(installed.exports).toEqual({ ".": { types: "./dist/index.d.ts", default: "./dist/index.js" }, "./package.json": "./package.json" });
  expect(JSON.stringify(installed.dependencies)).not.toContain('"*"');

  const out = await run(process.execPath, ["index.mjs"], { cwd: app });
  expect(out.stdout).toContain("ok: true");
  expect(out.stdout).toMatch(/risk_level: '(high|critical)'/);
  expect(out.stdout).toContain("id: 'domain:paypa1.com'");
  expect(out.stderr).toBe("");

  // The library carries screening only: none of the API server's ports (job queue, webhook
  // secrets, API keys, usage, idempotency) in its exports or its declarations; and a provider
  // that hangs is cut at the deadline the system clock keeps.
  writeFileSync(join(app, "lean.mjs"), [
    'import * as core from "@svc/core";',
    'const hangs = { name: "hangs", types: ["domain"], check: (_t, _v, signal) => new Promise((_, reject) => signal.addEventListener("abort", () => reject(new Error("aborted")))) };',
    // (A real provider waits on a socket, which keeps the process alive; this one waits on nothing.)
    "const alive = setInterval(() => {}, 1000);",
    'const r = await core.createScreener({ deps: { providers: [hangs], sourceTimeoutMs: 100 } }).screen("paypa1.com");',
    'console.log(JSON.stringify({ exports: Object.keys(core), hangs: r.source_outcomes.find((o) => o.source === "hangs") }));',
    "clearInterval(alive);",
  ].join("\n"));
  const lean = JSON.parse((await run(process.execPath, ["lean.mjs"], { cwd: app })).stdout) as { exports: string[]; hangs: { status: string; reason: string; ms: number } };
  expect(lean.exports).toContain("createScreener");
  for (const name of ["hashApiKey", "formatApiKey", "apiKeyFromSecret", "checkIdForJob", "ASYNC_JOB_STATUSES", "WEBHOOK_SECRET_OVERLAP_MS"]) expect(lean.exports).not.toContain(name);
  expect(lean.hangs).toMatchObject({ status: "unavailable", reason: "timed out after 100 ms" });
  // The source waited for its deadline, not longer (a busy machine adds its share).
  expect(lean.hangs.ms).toBeGreaterThanOrEqual(80);
  expect(lean.hangs.ms).toBeLessThan(2_000);
  const declarations = readdirSync(join(app, "node_modules", "@svc", "core", "dist"), { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".d.ts"));
  expect(declarations.length).toBeGreaterThan(10);
  const typesText = declarations.map((f) => readFileSync(join(app, "node_modules", "@svc", "core", "dist", f), "utf8")).join("\n");
  for (const port of ["JobQueue", "AsyncJobStore", "WebhookSecretStore", "WebhookUrlGuard", "ApiKeyRepository", "AccountRepository", "UsageCounter", "RateLimiter", "IdempotencyStore", "WebAccountStore"]) expect(typesText).not.toMatch(new RegExp(`\\b${port}\\b`));

  // The declarations serve a TypeScript user (strict, NodeNext resolution).
  writeFileSync(join(app, "check.ts"), 'import { createScreener, type Verdict } from "@svc/core";\nconst r = await createScreener().screen("paypa1.com");\nconst v: Verdict | null = r.ok ? r.verdict : null;\nexport const level: "low" | "medium" | "high" | "critical" | undefined = v?.risk_level;\n');
  writeFileSync(join(app, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, module: "NodeNext", moduleResolution: "NodeNext", target: "ES2023", noEmit: true, skipLibCheck: false, types: ["node"], typeRoots: [join(repo, "node_modules", "@types")] }, files: ["check.ts"] }));
  await run(process.execPath, [join(repo, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.json"], { cwd: app });
});
