// Proves that the lint really keeps @svc/core pure: a file placed in packages/core that imports
// a driver, a framework, DI, node:fs/node:dns or the test helpers must be rejected. And that no
// app imports another app: a file in apps/cli importing @svc/api (or a bot, or the worker) by
// name or by a relative path into its sources must be rejected too.
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

// App to app: each line must be rejected by the app rule (no-restricted-imports). nx's tag rule
// leaves type:app out of what an app may depend on, but it cannot resolve an app's package name
// (apps export nothing), so the app rule is what rejects `@svc/api`; nx also rejects the paths.
const appImports = [
  { line: 'import { createApp } from "@svc/api";' },
  { line: 'import { buildContainer } from "@svc/bot-telegram";' },
  { line: 'import { createApp } from "../../api/src/app.js";' },
  { line: 'import { main } from "../../worker/src/main.js";' },
  { line: 'import { buildRuntime } from "../../bot-whatsapp/src/container.js";' },
];
// Still allowed from an app: the shared packages, and the app's own files.
const allowedInApp = [
  'import { createApp } from "@svc/server";',
  'import { loadConfig } from "@svc/runtime";',
  'import { CliError } from "./exit.js";',
  'import { write } from "../io.js";',
];

const eslint = new ESLint();
const problems = [];

/** Lints `lines` as a file at `filePath`; each line k+1 must (or must not) be rejected. */
async function check(filePath, cases, expectRejected) {
  const text = `${cases.map((i) => i.line).join("\n")}\nexport const leak = 1;\n`;
  const [result] = await eslint.lintText(text, { filePath });
  const messages = (result?.messages ?? []).filter((m) => m.ruleId === "@nx/enforce-module-boundaries" || m.ruleId === "no-restricted-imports");
  cases.forEach((imp, k) => {
    const line = k + 1;
    const rules = new Set(messages.filter((m) => m.line === line).map((m) => m.ruleId));
    if (!expectRejected) {
      if (rules.size > 0) problems.push(`${filePath} line ${line} rejected but should be allowed: ${imp.line}`);
      return;
    }
    const needNx = imp.nx || (imp.pkg && installed(imp.pkg));
    if (needNx && !rules.has("@nx/enforce-module-boundaries")) problems.push(`${filePath} line ${line} not rejected by @nx/enforce-module-boundaries: ${imp.line}`);
    if (imp.app && !rules.has("no-restricted-imports")) problems.push(`${filePath} line ${line} not rejected by the app-to-app rule: ${imp.line}`);
    if (!rules.has("@nx/enforce-module-boundaries") && !rules.has("no-restricted-imports")) problems.push(`${filePath} line ${line} not rejected at all: ${imp.line}`);
  });
  if (problems.length > 0) for (const m of messages) console.error(`  ${filePath} ${m.line}: ${m.ruleId} ${m.message.split("\n")[0]}`);
}

await check("packages/core/src/boundary-fixture.ts", imports, true);
await check("apps/cli/src/boundary-fixture.ts", appImports.map((i) => ({ ...i, app: true })), true);
await check("apps/cli/src/commands/boundary-fixture.ts", allowedInApp.map((line) => ({ line })), false);
if (problems.length > 0) {
  console.error(problems.join("\n"));
  process.exit(1);
}
console.log(`module boundaries: all ${imports.length} forbidden imports in packages/core and ${appImports.length} app-to-app imports in apps/cli rejected; ${allowedInApp.length} package and own-file imports allowed`);
