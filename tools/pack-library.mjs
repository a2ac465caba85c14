#!/usr/bin/env node
// Builds the embeddable library — @svc/core and @svc/intel — to JavaScript with type
// declarations, writes publishable package.json files (exports → dist, real dependency
// versions instead of "*"), and runs `npm pack` for each.
//
//   node tools/pack-library.mjs [--out <dir>]      (default: dist/pack)
//
// Prints {"core": "<path to .tgz>", "intel": "<path to .tgz>"} as the last line of stdout.
// The workspace packages keep exporting their TypeScript sources for development; this script
// is the build, so nothing in packages/* changes.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const outArg = args.indexOf("--out");
const out = resolve(outArg >= 0 && args[outArg + 1] ? args[outArg + 1] : join(repo, "dist", "pack"));
const readJson = (p) => JSON.parse(readFileSync(p, "utf8"));
const log = (m) => process.stderr.write(`pack-library: ${m}\n`);

/** The libraries, dependencies first. */
const LIBRARIES = [
  { dir: "intel", extra: ["data"], description: "svc reference data: brands, risky keywords, suspicious TLDs, shorteners, disposable and free mail domains, confusables; intel feed importers" },
  { dir: "core", extra: [], description: "svc entity risk screening, in-process: createScreener().screen(\"paypa1.com\") — domains, URLs, wallets, e-mail, IPs, phones, social accounts" },
];

const work = mkdtempSync(join(tmpdir(), "svc-pack-"));
try {
  const build = join(work, "build");
  log(`compiling with tsc → ${build}`);
  execFileSync(process.execPath, [join(repo, "node_modules", "typescript", "bin", "tsc"), "-p", join(repo, "tools", "tsconfig.library.json"), "--outDir", build], { cwd: repo, stdio: ["ignore", "inherit", "inherit"] });

  const versions = Object.fromEntries(LIBRARIES.map((l) => [`@svc/${l.dir}`, readJson(join(repo, "packages", l.dir, "package.json")).version]));
  const installed = (name) => {
    const p = join(repo, "node_modules", name, "package.json");
    return existsSync(p) ? readJson(p).version : null;
  };
  mkdirSync(out, { recursive: true });
  const tarballs = {};
  for (const lib of LIBRARIES) {
    const src = readJson(join(repo, "packages", lib.dir, "package.json"));
    const pkg = join(work, "pkg", lib.dir);
    mkdirSync(pkg, { recursive: true });
    cpSync(join(build, lib.dir, "src"), join(pkg, "dist"), { recursive: true });
    for (const extra of lib.extra) cpSync(join(repo, "packages", lib.dir, extra), join(pkg, extra), { recursive: true });
    // Declarations only for what is built (no stray test files).
    const dependencies = {};
    for (const [name, range] of Object.entries(src.dependencies ?? {})) {
      if (versions[name]) dependencies[name] = versions[name];
      else if (range === "*" || range === "latest") {
        const v = installed(name);
        if (!v) throw new Error(`${name} has range "${range}" and is not installed: cannot pin it`);
        dependencies[name] = `^${v}`;
      } else dependencies[name] = range;
    }
    const manifest = {
      name: src.name,
      version: src.version,
      description: lib.description,
      license: src.license,
      type: "module",
      main: "./dist/index.js",
      types: "./dist/index.d.ts",
      exports: { ".": { types: "./dist/index.d.ts", default: "./dist/index.js" }, "./package.json": "./package.json" },
      files: ["dist", ...lib.extra],
      sideEffects: false,
      engines: { node: ">=20.19" },
      dependencies,
    };
    writeFileSync(join(pkg, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
    writeFileSync(join(pkg, "README.md"), `# ${src.name}\n\n${lib.description}.\n\nSee docs/library.md in the svc repository.\n`);
    const before = new Set(readdirSync(out));
    const res = JSON.parse(execFileSync("npm", ["pack", pkg, "--pack-destination", out, "--json", "--loglevel=error"], { cwd: work, encoding: "utf8" }));
    const file = res[0]?.filename ?? readdirSync(out).find((f) => !before.has(f));
    tarballs[lib.dir] = join(out, file.replace(/^@/, "").replace(/\//g, "-"));
    log(`${src.name}@${src.version} → ${tarballs[lib.dir]} (${res[0]?.entryCount ?? "?"} files, ${Math.round((res[0]?.size ?? 0) / 1024)} KB)`);
  }
  process.stdout.write(`${JSON.stringify(tarballs)}\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
