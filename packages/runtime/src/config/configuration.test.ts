import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ALL_SETTINGS, SETTINGS_BY_PROCESS } from "./registry.js";

const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
const LOADER = "packages/runtime/src/config/load.ts";

/** The rows of docs/configuration.md's tables: variable → the "Read by" cell. */
function documented(): Map<string, string[]> {
  const rows = new Map<string, string[]>();
  for (const line of readFileSync(join(ROOT, "docs/configuration.md"), "utf8").split("\n")) {
    const m = /^\| `([A-Z][A-Z0-9_]*)` \|(?:[^|]*\|){2}([^|]*)\|/u.exec(line);
    if (m) rows.set(m[1] as string, (m[2] as string).split(",").map((p) => p.trim()).filter((p) => p.length > 0));
  }
  return rows;
}

/** Source files of the processes: apps and packages, without tests and test helpers (`x.test.ts`, `test-support.ts`, `reusable-test-databases.ts`). */
function processSources(): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== "node_modules" && e.name !== "dist" && e.name !== "test" && e.name !== "testing") walk(path);
      } else if (/\.(?:ts|js|mjs)$/u.test(e.name) && !/(?:^|[-.])test[-.]/u.test(e.name)) {
        out.push(relative(ROOT, path));
      }
    }
  };
  for (const top of ["apps", "packages"]) {
    for (const project of readdirSync(join(ROOT, top), { withFileTypes: true })) {
      // @svc/testing holds only test helpers.
      if (!project.isDirectory() || `${top}/${project.name}` === "packages/testing") continue;
      for (const sub of ["src", "bin"]) {
        try {
          walk(join(ROOT, top, project.name, sub));
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
        }
      }
    }
  }
  return out;
}

describe("docs/configuration.md", () => {
  const docs = documented();

  it("lists every variable a process reads, and only those", () => {
    expect(ALL_SETTINGS.length).toBeGreaterThan(50);
    expect(ALL_SETTINGS.filter((n) => !docs.has(n))).toEqual([]);
    expect([...docs.keys()].filter((n) => !ALL_SETTINGS.includes(n))).toEqual([]);
  });

  it("says which processes read each variable", () => {
    for (const name of ALL_SETTINGS) {
      const readers = Object.entries(SETTINGS_BY_PROCESS).filter(([, names]) => names.includes(name)).map(([p]) => p).sort();
      expect({ name, readers: [...(docs.get(name) ?? [])].sort() }).toEqual({ name, readers });
    }
  });
});

describe("the environment is read in one place", () => {
  it("no process source reads process.env outside the loader", () => {
    const files = processSources();
    expect(files).toContain(LOADER);
    expect(files.length).toBeGreaterThan(200);
    const readers = files.filter((f) => f !== LOADER && /\bprocess\s*(?:\.\s*env\b|\[\s*["'`]env["'`]\s*\])/u.test(readFileSync(join(ROOT, f), "utf8")));
    expect(readers).toEqual([]);
  });
});
