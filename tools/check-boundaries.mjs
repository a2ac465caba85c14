// Proves that the lint really keeps @svc/core pure: a file placed in packages/core that imports
// a driver, a framework, DI, node:fs/node:dns or the test helpers must be rejected.
// Runs in CI after the normal lint (a rule that silently stopped firing would otherwise go unseen).
import { createRequire } from "node:module";
import { ESLint } from "eslint";

const imports = [
  { line: 'import { DataSource } from "typeorm";', pkg: "typeorm" },
  { line: 'import { Hono } from "hono";', pkg: "hono" },
  { line: 'import { Container } from "inversify";', pkg: "inversify" },
  { line: 'import { Bot } from "grammy";', pkg: "grammy" },
  { line: 'import { readFileSync } from "node:fs";' },
  { line: 'import { lookup } from "node:dns";' },
  { line: 'import { connect } from "node:net";' },
  // The nx tag rule: type:domain may not depend on type:testing.
  { line: 'import * as testing from "@svc/testing";', nx: true },
];
const fixture = `${imports.map((i) => i.line).join("\n")}\nexport const leak = 1;\n`;

// nx can only ban an external package it has in its project graph, i.e. one that is installed.
const require = createRequire(import.meta.url);
const installed = (pkg) => {
  try {
    require.resolve(`${pkg}/package.json`);
    return true;
  } catch {
    return false;
  }
};

const eslint = new ESLint();
const [result] = await eslint.lintText(fixture, { filePath: "packages/core/src/boundary-fixture.ts" });
const messages = result?.messages ?? [];
const problems = [];
imports.forEach((imp, k) => {
  const line = k + 1;
  const rules = new Set(messages.filter((m) => m.line === line).map((m) => m.ruleId));
  const needNx = imp.nx || (imp.pkg && installed(imp.pkg));
  if (needNx && !rules.has("@nx/enforce-module-boundaries")) problems.push(`line ${line} not rejected by @nx/enforce-module-boundaries: ${imp.line}`);
  if (!rules.has("@nx/enforce-module-boundaries") && !rules.has("no-restricted-imports")) problems.push(`line ${line} not rejected at all: ${imp.line}`);
});
if (problems.length > 0) {
  console.error(problems.join("\n"));
  for (const m of messages) console.error(`  ${m.line}: ${m.ruleId} ${m.message.split("\n")[0]}`);
  process.exit(1);
}
console.log(`module boundaries: all ${imports.length} forbidden imports in packages/core rejected`);
