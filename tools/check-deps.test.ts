// tools/check-deps.mjs on small workspaces written for each case, and on this repository.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { checkAll, packageOf, referencesOf } from "./check-deps.mjs";

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

/** A monorepo in a temporary directory: `files` maps relative paths to contents (objects are JSON). */
function repo(files: Record<string, string | object>): string {
  const root = mkdtempSync(join(tmpdir(), "svc-check-deps-"));
  roots.push(root);
  const all: Record<string, string | object> = { "package.json": { name: "r", workspaces: ["apps/*", "packages/*"], devDependencies: { vitest: "*" } }, ...files };
  for (const [path, content] of Object.entries(all)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), typeof content === "string" ? content : JSON.stringify(content));
  }
  return root;
}

const app = (pkg: object, main: string, extra: Record<string, string> = {}) => ({
  "apps/a/package.json": { name: "@x/a", ...pkg },
  "apps/a/tsconfig.json": {},
  "apps/a/src/main.ts": main,
  ...Object.fromEntries(Object.entries(extra).map(([k, v]) => [`apps/a/${k}`, v])),
});

describe("check-deps", () => {
  it("tells a built-in module from an npm package of the same name, and scoped packages by their two segments", () => {
    expect(packageOf("node:fs")).toBeNull();
    expect(packageOf("fs/promises")).toBeNull();
    expect(packageOf("./x.js")).toBeNull();
    expect(packageOf("punycode/punycode.es6.js")).toBe("punycode");
    expect(packageOf("@hono/node-server/conninfo")).toBe("@hono/node-server");
  });

  it("reads value, type-only, re-exported, dynamic and worker-thread references", () => {
    const refs = referencesOf("x.ts", `
      import type { A } from "only-types";
      import { type B, c } from "values";
      export { d } from "./local.js";
      export type { E } from "types-again";
      const m = await import("lazy");
      new Worker(new URL("./thread.js", import.meta.url));
    `);
    expect(refs).toEqual([
      { spec: "only-types", runtime: false },
      { spec: "values", runtime: true },
      { spec: "./local.js", runtime: true },
      { spec: "types-again", runtime: false },
      { spec: "lazy", runtime: true },
      { spec: "./thread.js", runtime: true },
    ]);
  });

  it("a package imported at run time only through devDependencies is reported, with the file", () => {
    const root = repo(app({ dependencies: {}, devDependencies: { grammy: "1" } }, `import "./bot.js";`, { "src/bot.ts": `import { Bot } from "grammy";\nexport const b = Bot;` }));
    expect(checkAll(root)).toEqual([expect.stringMatching(/^apps\/a\/src\/bot\.ts: imports "grammy" at run time, but apps\/a\/package\.json has it only in devDependencies$/)]);
  });

  it("follows lazy imports and worker threads; type-only imports and tests may use devDependencies", () => {
    const root = repo(app({ dependencies: {}, devDependencies: { typeorm: "1" } }, `import type { DataSource } from "typeorm";\nawait import("./later.js");`, {
      "src/later.ts": `new Worker(new URL("./thread.js", import.meta.url));`,
      "src/thread.ts": `import { parse } from "csv-parse";\nparse;`,
      "src/a.test.ts": `import { it } from "vitest";\nimport { DataSource } from "typeorm";\nit("x", () => void DataSource);`,
    }));
    expect(checkAll(root)).toEqual([`apps/a/src/thread.ts: imports "csv-parse" at run time, but apps/a/package.json does not list it in dependencies`]);
  });

  it("a dependency nothing imports at run time is reported; svc.runtimeOnly with a reason accepts it", () => {
    const unused = repo(app({ dependencies: { "pg-boss": "10" } }, `export {};`));
    expect(checkAll(unused)).toEqual([expect.stringContaining(`"pg-boss" is in dependencies but nothing the workspace runs imports it`)]);
    const explained = repo(app({ dependencies: { "pg-boss": "10" }, svc: { runtimeOnly: { "pg-boss": "loaded by name by the queue library" } } }, `export {};`));
    expect(checkAll(explained)).toEqual([]);
  });

  it("a relative import into another workspace is reported", () => {
    const root = repo({
      ...app({ dependencies: {} }, `import { x } from "../../../packages/p/src/index.js";\nx;`),
      "packages/p/package.json": { name: "@x/p", exports: { ".": { development: "./src/index.ts", default: "./dist/index.js" } } },
      "packages/p/tsconfig.json": {},
      "packages/p/src/index.ts": `export const x = 1;`,
    });
    expect(checkAll(root)).toEqual([expect.stringContaining("apps/a/src/main.ts: imports ../../../packages/p/src/index.js, outside its workspace")]);
  });

  it("passes on this repository", { timeout: 120_000 }, () => {
    expect(checkAll()).toEqual([]);
  });
});
