import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * @svc/core keeps no time of its own (decision 0068): no timers, no reading of the clock outside
 * the Clock port. The lint rule says so while editing; this scan says so in the test run, on the
 * syntax tree (a comment or a string that mentions a timer is no use of one).
 */
const SRC = fileURLToPath(new URL("../../packages/core/src/", import.meta.url));
/** The system clock adapter the embedded library defaults to: the one place allowed. */
const ALLOWED = new Set(["system-clock.ts"]);
const TIMERS = new Set(["setTimeout", "setInterval", "setImmediate"]);
const CLOCK_READS = new Set(["Date.now", "performance.now", "AbortSignal.timeout", "globalThis.setTimeout", "globalThis.setInterval", "globalThis.setImmediate"]);

/** `x.setTimeout`, `{ setTimeout: … }`: a name of a member, not the global. */
const isMemberName = (n: ts.Identifier): boolean => (ts.isPropertyAccessExpression(n.parent) || ts.isPropertyAssignment(n.parent) || ts.isMethodDeclaration(n.parent) || ts.isPropertySignature(n.parent)) && n.parent.name === n;

function uses(text: string, file = "x.ts"): string[] {
  const found: string[] = [];
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const at = (n: ts.Node): string => `${file}:${source.getLineAndCharacterOfPosition(n.getStart()).line + 1}`;
  const visit = (n: ts.Node): void => {
    if (ts.isIdentifier(n) && TIMERS.has(n.text) && !isMemberName(n)) found.push(`${at(n)} ${n.text}`);
    if (ts.isPropertyAccessExpression(n) && CLOCK_READS.has(n.getText(source))) found.push(`${at(n)} ${n.getText(source)}`);
    if (ts.isNewExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === "Date" && (n.arguments?.length ?? 0) === 0) found.push(`${at(n)} new Date()`);
    ts.forEachChild(n, visit);
  };
  visit(source);
  return found;
}

function coreFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return coreFiles(p);
    return e.name.endsWith(".ts") && !e.name.endsWith(".test.ts") && !e.name.endsWith(".d.ts") ? [p] : [];
  });
}

describe("@svc/core keeps no time of its own", () => {
  it("the scan finds every way to start a timer or read the clock", () => {
    const text = [
      "export const a = Date.now();",
      "export const b = new Date();",
      "setTimeout(() => 1, 5);",
      "export const c = AbortSignal.timeout(5);",
      "export const d = globalThis.setInterval(() => 1, 5);",
      "export const e = performance.now();",
      "const s = setImmediate; s(() => 1);",
      "// setTimeout in a comment, and in a string:",
      'export const f = "Date.now()" + new Date(0).getTime() + ({ setTimeout: 1 }).setTimeout;',
    ].join("\n");
    expect(uses(text).map((u) => u.split(" ")[0])).toEqual(["x.ts:1", "x.ts:2", "x.ts:3", "x.ts:4", "x.ts:5", "x.ts:6", "x.ts:7"]);
  });

  it("no source file of the core starts a timer or reads the clock, except the system clock adapter", () => {
    const files = coreFiles(SRC).filter((f) => !ALLOWED.has(relative(SRC, f)));
    expect(files.length).toBeGreaterThan(40);
    expect(files.flatMap((f) => uses(readFileSync(f, "utf8"), relative(SRC, f)))).toEqual([]);
  }, 60_000);
});
