#!/usr/bin/env node
// Lays out what a deployment needs, and nothing else, in a directory: the root package.json and
// package-lock.json, and for each workspace its package.json and what its `files` field names
// (default: dist/ — e.g. packages/intel adds data/, apps/cli adds bin/). Builds first.
// Then, in that directory: `npm ci --omit=dev --ignore-scripts`, and run
// `node apps/api/dist/main.js` (the worker: apps/worker/dist/main.js, a bot:
// apps/bot-<name>/dist/main.js, the CLI: apps/cli/bin/svc.js).
//
//   node tools/deploy-layout.mjs <directory>
import { cpSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { ROOT, build, workspaces } from "./build.mjs";

/** Copies the deployment layout into `out` (created if missing); returns the workspace directories copied, relative to the root. */
export async function layOut(out) {
  await build({ quiet: true });
  mkdirSync(out, { recursive: true });
  for (const f of ["package.json", "package-lock.json"]) cpSync(join(ROOT, f), join(out, f));
  const copied = [];
  for (const dir of workspaces()) {
    const rel = relative(ROOT, dir);
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    mkdirSync(join(out, rel), { recursive: true });
    cpSync(join(dir, "package.json"), join(out, rel, "package.json"));
    for (const entry of pkg.files ?? ["dist"]) {
      const from = join(dir, entry);
      if (!existsSync(from)) throw new Error(`${rel}/package.json: "files" names ${entry}, which does not exist (not built?)`);
      cpSync(from, join(out, rel, entry), { recursive: true, filter: (p) => !p.endsWith(".build-stamp") });
    }
    copied.push(rel);
  }
  return copied;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  const out = process.argv[2];
  if (!out) {
    process.stderr.write("usage: node tools/deploy-layout.mjs <directory>\n");
    process.exit(2);
  }
  layOut(resolve(out)).then(
    (copied) => process.stdout.write(`${resolve(out)}: package.json, package-lock.json and ${copied.length} workspaces; next: npm ci --omit=dev --ignore-scripts\n`),
    (e) => {
      process.stderr.write(`deploy-layout: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exit(1);
    },
  );
}
