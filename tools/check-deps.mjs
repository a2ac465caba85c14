#!/usr/bin/env node
// Every workspace declares what it imports (docs/decisions/0060). For each workspace found by
// tools/build.mjs (packages/* and apps/* with sources):
//   - a bare package imported at run time — reachable from src/main.ts, src/index.ts or a package
//     export through value imports, re-exports, `import()` and `new URL("./x.js", import.meta.url)`
//     (worker threads) — must be in its `dependencies`: `npm ci --omit=dev` installs nothing else;
//     (a workspace that nothing runs — no src/main.ts, in no workspace's dependencies — may take
//     them from devDependencies: it is only ever loaded by tests);
//   - any other import (tests, test support, type-only imports) must be in its dependencies or
//     devDependencies, or the root's devDependencies (tools shared by every workspace);
//   - every entry of `dependencies` must be imported at run time somewhere in the workspace, or be
//     a peer dependency of one that is (otherwise it belongs in devDependencies, or nowhere),
//     unless `svc.runtimeOnly` in its package.json names it with the reason.
//
//   node tools/check-deps.mjs        (run by `npm run lint`)
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { ROOT, workspaces } from "./build.mjs";

const BUILTIN = new Set(builtinModules);
const readJson = (p) => JSON.parse(readFileSync(p, "utf8"));
/** Paths in messages are relative to the repository being checked. */
let checkedRoot = ROOT;
const rel = (p) => relative(checkedRoot, p).split("\\").join("/");

/** The package a bare specifier names (`@scope/name/sub` → `@scope/name`), or null for relative and built-in ones. */
export function packageOf(spec) {
  if (spec.startsWith(".") || spec.startsWith("/") || spec.startsWith("node:") || spec.startsWith("#")) return null;
  if (BUILTIN.has(spec)) return null; // "fs/promises", but not "punycode/punycode.es6.js" (the npm package)
  const parts = spec.split("/");
  return spec.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/** The module references of one source file: `{ spec, runtime }` (runtime false for type-only imports). */
export function referencesOf(fileName, text) {
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const refs = [];
  const visit = (node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      // `import type …` is erased; `import { type A }` is kept as `import {} from …` (verbatimModuleSyntax).
      refs.push({ spec: node.moduleSpecifier.text, runtime: !clause?.isTypeOnly });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      refs.push({ spec: node.moduleSpecifier.text, runtime: !node.isTypeOnly });
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference) && ts.isStringLiteral(node.moduleReference.expression)) {
      refs.push({ spec: node.moduleReference.expression.text, runtime: !node.isTypeOnly });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteralLike(node.arguments[0])) {
      refs.push({ spec: node.arguments[0].text, runtime: true });
    } else if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === "URL" && node.arguments?.length === 2) {
      // new URL("./worker.js", import.meta.url): a module started as a worker thread.
      const [a, b] = node.arguments;
      if (ts.isStringLiteralLike(a) && /\.[cm]?js$/.test(a.text) && b.getText(sf) === "import.meta.url") refs.push({ spec: a.text, runtime: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return refs;
}

/** The source file a relative specifier names (`./x.js` → `./x.ts`), or null when it is not a source (data, missing). */
function resolveRelative(from, spec) {
  const base = resolve(dirname(from), spec);
  const stem = base.replace(/\.[cm]?js$/, "");
  for (const c of [`${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, base, join(base, "index.ts")]) {
    if (/\.[cm]?[jt]sx?$/.test(c) && existsSync(c)) return c;
  }
  return null;
}

/** The installed package.json of `name` as seen from `dir` (Node's lookup: node_modules upwards), or null. */
function installedManifest(dir, name) {
  for (let d = dir; ; d = dirname(d)) {
    const p = join(d, "node_modules", name, "package.json");
    if (existsSync(p)) return readJson(p);
    if (dirname(d) === d) return null;
  }
}

function walk(dir, out = []) {
  if (!existsSync(dir)) return out;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== "node_modules" && e.name !== "dist") walk(p, out);
    } else if (/\.[cm]?[jt]sx?$/.test(e.name) && !e.name.endsWith(".d.ts")) out.push(p);
  }
  return out;
}

/** The entry points of a workspace as it runs: src/main.ts, src/index.ts and what its exports point to in development. */
function entriesOf(dir, pkg) {
  const entries = new Set();
  for (const f of ["src/main.ts", "src/index.ts"]) if (existsSync(join(dir, f))) entries.add(join(dir, f));
  const targets = [];
  const collect = (v) => {
    if (typeof v === "string") targets.push(v);
    else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) if (k !== "types") collect(x);
  };
  collect(pkg.exports);
  for (const t of targets) {
    const src = t.replace(/^\.\/dist\//, "./src/").replace(/\.js$/, ".ts");
    if (existsSync(join(dir, src))) entries.add(join(dir, src));
  }
  return [...entries];
}

/**
 * Workspaces that nothing runs: no src/main.ts and listed by no other workspace in its
 * `dependencies` (only in devDependencies, like the shared test suites). What they import is
 * needed by tests only, so devDependencies (theirs or the root's) are enough.
 */
export function devOnlyWorkspaces(dirs) {
  const names = new Map(dirs.map((d) => [readJson(join(d, "package.json")).name, d]));
  const needed = new Set();
  for (const d of dirs) {
    const pkg = readJson(join(d, "package.json"));
    if (existsSync(join(d, "src", "main.ts"))) needed.add(pkg.name);
    for (const dep of Object.keys(pkg.dependencies ?? {})) if (names.has(dep)) needed.add(dep);
  }
  return new Set([...names].filter(([name]) => !needed.has(name)).map(([, d]) => d));
}

/** Sources of a workspace reachable at run time from its entry points, and the bare packages they import (name → files). */
function reach(dir, pkg, refs) {
  const usedAtRuntime = new Map();
  const outside = [];
  const seen = new Set();
  const queue = entriesOf(dir, pkg);
  while (queue.length > 0) {
    const file = queue.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    for (const r of refs(file)) {
      if (!r.runtime) continue;
      const name = packageOf(r.spec);
      if (name === null) {
        if (r.spec.startsWith(".")) {
          const target = resolveRelative(file, r.spec);
          if (target && target.startsWith(`${dir}/`)) queue.push(target);
          else if (target) outside.push(`${rel(file)}: imports ${r.spec}, outside its workspace: import the package that owns it`);
        }
        continue;
      }
      if (!usedAtRuntime.has(name)) usedAtRuntime.set(name, new Set());
      usedAtRuntime.get(name).add(rel(file));
    }
  }
  return { usedAtRuntime, seen, outside };
}

const sourceRefs = () => {
  const cache = new Map();
  return (file) => {
    if (!cache.has(file)) cache.set(file, referencesOf(file, readFileSync(file, "utf8")));
    return cache.get(file);
  };
};

/** The bare packages a workspace imports at run time: name → one file that imports it. */
export function runtimeImports(dir) {
  const { usedAtRuntime } = reach(dir, readJson(join(dir, "package.json")), sourceRefs());
  return new Map([...usedAtRuntime].map(([name, files]) => [name, [...files][0]]));
}

export function checkWorkspace(dir, rootDevDeps, devOnly = false) {
  const pkg = readJson(join(dir, "package.json"));
  const deps = new Set([...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.optionalDependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})]);
  const devDeps = new Set(Object.keys(pkg.devDependencies ?? {}));
  const runtimeOnly = pkg.svc?.runtimeOnly ?? {};
  const problems = [];
  const refs = sourceRefs();

  // Run time: what the entry points reach through value imports.
  const { usedAtRuntime, seen, outside } = reach(dir, pkg, refs);
  problems.push(...outside);
  for (const [name, files] of usedAtRuntime) {
    if (deps.has(name) || (devOnly && (devDeps.has(name) || rootDevDeps.has(name)))) continue;
    for (const file of files) problems.push(`${file}: imports "${name}" at run time, but ${rel(join(dir, "package.json"))} ${devDeps.has(name) ? "has it only in devDependencies" : "does not list it in dependencies"}`);
  }

  // Everything else: tests, test support, tools inside the workspace.
  for (const file of walk(dir)) {
    if (seen.has(file)) continue;
    for (const r of refs(file)) {
      const name = packageOf(r.spec);
      if (name === null || deps.has(name) || devDeps.has(name) || rootDevDeps.has(name)) continue;
      problems.push(`${rel(file)}: imports "${name}", which neither ${rel(join(dir, "package.json"))} nor the root package.json declares`);
    }
  }

  // A dependency that a used one needs as its peer (zod for @hono/zod-openapi) is used too.
  const peers = new Map();
  for (const name of usedAtRuntime.keys()) {
    for (const peer of Object.keys(installedManifest(dir, name)?.peerDependencies ?? {})) if (!peers.has(peer)) peers.set(peer, name);
  }
  for (const name of deps) {
    if (usedAtRuntime.has(name) || peers.has(name)) continue;
    if (typeof runtimeOnly[name] === "string" && runtimeOnly[name].length > 0) continue;
    problems.push(`${rel(join(dir, "package.json"))}: "${name}" is in dependencies but nothing the workspace runs imports it (move it to devDependencies, remove it, or explain it under svc.runtimeOnly)`);
  }
  for (const name of Object.keys(runtimeOnly)) {
    if (!deps.has(name)) problems.push(`${rel(join(dir, "package.json"))}: svc.runtimeOnly names "${name}", which is not in dependencies`);
  }
  return problems;
}

export function checkAll(root = ROOT) {
  checkedRoot = root;
  const rootDevDeps = new Set(Object.keys(readJson(join(root, "package.json")).devDependencies ?? {}));
  const dirs = workspaces(root);
  const devOnly = devOnlyWorkspaces(dirs);
  return dirs.flatMap((dir) => checkWorkspace(dir, rootDevDeps, devOnly.has(dir)));
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  const problems = checkAll();
  if (problems.length > 0) {
    process.stderr.write(`${problems.join("\n")}\n${problems.length} dependency problem(s): each workspace declares the packages it imports (docs/decisions/0060-runtime-dependencies-where-imported.md)\n`);
    process.exit(1);
  }
  process.stdout.write(`dependencies: every workspace declares what it imports (${workspaces().length} workspaces)\n`);
}
