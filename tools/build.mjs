#!/usr/bin/env node
// Compiles every workspace (each packages/* and apps/* directory with a package.json, a
// tsconfig.json and a src/ directory) to JavaScript in its dist/, one output file per source
// file (no bundling: imports between files and packages stay as they are). Type-checking is
// `npm run typecheck`; this only transpiles, with esbuild (docs/decisions/0059).
//
//   node tools/build.mjs [--force] [--verbose | --quiet]
//
// Prints one line on stderr when it compiled something (each workspace with --verbose, nothing
// with --quiet).
//
// Incremental: a workspace whose sources, package.json, tsconfig and this script are unchanged
// since its last build (dist/.build-stamp) is skipped, so a start with nothing to do costs a few
// milliseconds. Files next to the sources that are not TypeScript (data files read at run time
// through import.meta.url) are copied. Test files (*.test.ts) and development-only loaders
// (*.dev.mjs) are left out.
//
// Also importable: `await build({ quiet: true })` (the CLI's bin does this in a checkout).
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const SELF = fileURLToPath(import.meta.url);
const STAMP = ".build-stamp";

const isTest = (f) => /\.test\.[cm]?tsx?$/.test(f);
/** Development-only files (`*.dev.mjs`: loaders for running the sources) stay out of dist. */
const isDevOnly = (f) => /\.dev\.[cm]?[jt]s$/.test(f);
const isTs = (f) => /\.[cm]?tsx?$/.test(f) && !f.endsWith(".d.ts");

/** Every workspace directory that has sources to build, found from the root package.json's `workspaces` globs (`dir/*` only). */
export function workspaces(root = ROOT) {
  const globs = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).workspaces ?? [];
  const dirs = [];
  for (const g of globs) {
    if (!g.endsWith("/*") || g.slice(0, -2).includes("*")) throw new Error(`build: workspace pattern "${g}" is not of the form dir/*`);
    const parent = join(root, g.slice(0, -2));
    if (!existsSync(parent)) continue;
    for (const name of readdirSync(parent).sort()) {
      const dir = join(parent, name);
      if (existsSync(join(dir, "package.json")) && existsSync(join(dir, "tsconfig.json")) && existsSync(join(dir, "src"))) dirs.push(dir);
    }
  }
  return dirs;
}

function walk(dir, out = []) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (e.isFile()) out.push(p);
  }
  return out;
}

/** A digest of everything the workspace's output depends on: names, sizes and modification times. */
function fingerprint(dir, files) {
  const h = createHash("sha256");
  const inputs = [...files, join(dir, "package.json"), join(dir, "tsconfig.json"), join(ROOT, "tsconfig.base.json"), SELF];
  for (const f of inputs) {
    const s = statSync(f, { throwIfNoEntry: false });
    h.update(`${relative(ROOT, f)}\0${s ? `${s.size}:${s.mtimeMs}` : "-"}\n`);
  }
  return h.digest("hex");
}

async function buildOne(dir, { force, detail }) {
  const src = join(dir, "src");
  const dist = join(dir, "dist");
  const files = walk(src).filter((f) => !isTest(f) && !isDevOnly(f)).sort();
  const digest = fingerprint(dir, files);
  const stampFile = join(dist, STAMP);
  if (!force && existsSync(stampFile) && readFileSync(stampFile, "utf8") === digest) return false;

  const { build } = await import("esbuild");
  // Built beside dist/ and swapped in whole, so a process starting meanwhile never sees half a tree.
  const tmp = join(dir, `.dist-${process.pid}`);
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  try {
    const entryPoints = files.filter(isTs);
    if (entryPoints.length > 0) {
      await build({
        entryPoints,
        outbase: src,
        outdir: tmp,
        bundle: false,
        format: "esm",
        platform: "node",
        // The engines floor. With a bare "node20" esbuild silently drops JSON import attributes
        // (`with { type: "json" }`), which Node then refuses.
        target: "node20.19",
        sourcemap: true,
        tsconfig: join(dir, "tsconfig.json"),
        logLevel: "error",
      });
    }
    for (const f of files.filter((x) => !isTs(x) && !x.endsWith(".md"))) {
      const to = join(tmp, relative(src, f));
      mkdirSync(dirname(to), { recursive: true });
      cpSync(f, to);
    }
    writeFileSync(join(tmp, STAMP), digest);
    const old = join(dir, `.dist-old-${process.pid}`);
    if (existsSync(dist)) renameSync(dist, old);
    renameSync(tmp, dist);
    rmSync(old, { recursive: true, force: true });
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  detail(`built ${relative(ROOT, dir).split(sep).join("/")} (${files.length} files)`);
  return true;
}

/** Builds every workspace that changed; resolves to the number built. */
export async function build({ force = false, quiet = false, verbose = false } = {}) {
  const say = (m) => process.stderr.write(`build: ${m}\n`);
  const started = performance.now();
  const all = workspaces();
  const built = await Promise.all(all.map((dir) => buildOne(dir, { force, detail: verbose && !quiet ? say : () => {} })));
  const n = built.filter(Boolean).length;
  if (n > 0 && !quiet) say(`compiled ${n} of ${all.length} workspaces to dist/ in ${Math.round(performance.now() - started)} ms`);
  return n;
}

if (process.argv[1] && pathToFileURL(resolve(process.argv[1])).href === import.meta.url) {
  const args = new Set(process.argv.slice(2));
  const unknown = [...args].filter((a) => !["--force", "--quiet", "--verbose"].includes(a));
  if (unknown.length > 0) {
    process.stderr.write(`build: unknown option ${unknown.join(" ")} (use --force, --verbose, --quiet)\n`);
    process.exit(2);
  }
  build({ force: args.has("--force"), quiet: args.has("--quiet"), verbose: args.has("--verbose") }).catch((e) => {
    process.stderr.write(`build failed: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  });
}
