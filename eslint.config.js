// @ts-check
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import nx from "@nx/eslint-plugin";
import regexp from "eslint-plugin-regexp";
import globals from "globals";
import { readdirSync, readFileSync } from "node:fs";

/** Packages the pure core must never reach: I/O, frameworks, DI. */
const NOT_IN_CORE = [
  "typeorm", "pg", "pg-boss", "@electric-sql/pglite", "hono", "@hono/*",
  "grammy", "discord.js", "@slack/bolt", "whatsapp-api-js",
  "inversify", "reflect-metadata",
];
/** No container library anywhere: composition is plain factories in @svc/runtime (docs/decisions/0062). */
const DI = ["inversify", "reflect-metadata"];
/** The deployable processes (apps/*): none imports another (shared code lives in packages). */
const APP_DIRS = readdirSync(new URL("./apps", import.meta.url), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
const APPS = APP_DIRS.map((dir) => JSON.parse(readFileSync(new URL(`./apps/${dir}/package.json`, import.meta.url), "utf8")).name);
const NODE_IO = ["fs", "net", "dns", "child_process", "http", "https", "fs/promises", "dns/promises"];

export default tseslint.config(
  { ignores: ["**/node_modules/**", "**/dist/**", ".nx/**", ".svc/**", ".cache/**", "coverage/**", "**/fixtures/lint/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  regexp.configs["flat/recommended"],
  {
    files: ["**/*.ts", "**/*.js", "**/*.mjs"],
    languageOptions: { globals: { ...globals.node } },
    plugins: { "@nx": nx },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      // Catastrophic backtracking is a denial of service on chat input.
      "regexp/no-super-linear-backtracking": "error",
      "regexp/no-super-linear-move": "error",
      // Alphabets such as base58 read better spelled out than as ranges.
      "regexp/prefer-range": "off",
      "@nx/enforce-module-boundaries": ["error", {
        enforceBuildableLibDependency: false,
        // We do not bundle: a CLI may lazy-load a library that others import statically (start-up time).
        checkDynamicDependenciesExceptions: [".*"],
        allow: [],
        depConstraints: [
          { sourceTag: "type:domain", onlyDependOnLibsWithTags: ["type:domain", "type:data"], bannedExternalImports: NOT_IN_CORE },
          { sourceTag: "type:data", onlyDependOnLibsWithTags: ["type:data"], bannedExternalImports: NOT_IN_CORE },
          { sourceTag: "type:contract", onlyDependOnLibsWithTags: ["type:contract"], bannedExternalImports: DI },
          // Adapters run the shared port contract suites from type:testing in their tests.
          // type:feature: the bot kernel's storage ports (and their contract suites) are implemented by @svc/persistence.
          { sourceTag: "type:adapter", onlyDependOnLibsWithTags: ["type:domain", "type:data", "type:contract", "type:testing", "type:feature", "type:telemetry"], bannedExternalImports: DI },
          { sourceTag: "type:feature", onlyDependOnLibsWithTags: ["type:domain", "type:data", "type:contract"], bannedExternalImports: [...DI, "typeorm", "pg", "hono", "grammy", "discord.js", "@slack/bolt"] },
          { sourceTag: "type:client", onlyDependOnLibsWithTags: ["type:contract"], bannedExternalImports: DI },
          // Prometheus instruments (prom-client): counted by adapters and apps, never by the pure core.
          { sourceTag: "type:telemetry", onlyDependOnLibsWithTags: ["type:testing"], bannedExternalImports: DI },
          { sourceTag: "type:testing", onlyDependOnLibsWithTags: ["type:domain", "type:data", "type:testing"], bannedExternalImports: DI },
          // The composition root: opens the adapters from one validated config for every process.
          { sourceTag: "type:runtime", onlyDependOnLibsWithTags: ["type:domain", "type:data", "type:contract", "type:adapter", "type:feature", "type:telemetry", "type:testing"], bannedExternalImports: DI },
          // The HTTP API server (routes, services), composed on @svc/runtime; the API app and `svc serve` run it.
          { sourceTag: "type:server", onlyDependOnLibsWithTags: ["type:domain", "type:data", "type:contract", "type:adapter", "type:feature", "type:runtime", "type:telemetry", "type:testing"], bannedExternalImports: DI },
          // No type:app here: an app never imports another app.
          { sourceTag: "type:app", onlyDependOnLibsWithTags: ["type:domain", "type:data", "type:contract", "type:adapter", "type:feature", "type:client", "type:runtime", "type:server", "type:telemetry", "type:testing"], bannedExternalImports: DI },
        ],
      }],
    },
  },
  {
    // An app never imports another app, by package name or by a path into its sources.
    files: ["apps/**/*.ts"],
    rules: {
      "no-restricted-imports": ["error", {
        patterns: [
          { group: APPS, message: "An app never imports another app: move the shared code into a package (@svc/runtime, @svc/server, …)." },
          { regex: `^(?:\\.\\./)+(?:apps/)?(?:${APP_DIRS.join("|")})/`, message: "An app never imports another app's sources: move the shared code into a package." },
        ],
      }],
    },
  },
  {
    // The core keeps no time of its own: it reads the time and gets deadlines from the Clock port
    // (decision 0068). Only the system clock adapter it ships for the embedded library may.
    files: ["packages/core/src/**/*.ts"],
    ignores: ["packages/core/src/**/*.test.ts", "packages/core/src/system-clock.ts"],
    rules: {
      "no-restricted-globals": ["error",
        ...["setTimeout", "setInterval", "setImmediate", "clearTimeout", "clearInterval", "clearImmediate"].map((name) => ({ name, message: "@svc/core starts no timers: take a deadline from the Clock port (clock.deadline)." })),
      ],
      "no-restricted-properties": ["error",
        { object: "Date", property: "now", message: "@svc/core reads the time from the Clock port (clock.now())." },
        { object: "performance", property: "now", message: "@svc/core reads the time from the Clock port (clock.now())." },
        { object: "AbortSignal", property: "timeout", message: "@svc/core starts no timers: take a deadline from the Clock port (clock.deadline)." },
        { object: "globalThis", property: "setTimeout", message: "@svc/core starts no timers." },
        { object: "globalThis", property: "setInterval", message: "@svc/core starts no timers." },
      ],
      "no-restricted-syntax": ["error",
        { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: "@svc/core reads the time from the Clock port (clock.now())." },
      ],
    },
  },
  {
    files: ["packages/core/**/*.ts", "packages/intel/**/*.ts"],
    rules: {
      "no-restricted-imports": ["error", {
        paths: [
          ...NODE_IO.flatMap((m) => [
            { name: `node:${m}`, message: "@svc/core is pure: I/O belongs in an adapter." },
            { name: m, message: "@svc/core is pure: I/O belongs in an adapter." },
          ]),
          { name: "@svc/server-ports", message: "The embedded library carries no server ports: @svc/server-ports builds on @svc/core, not the other way round." },
        ],
        patterns: [{ group: NOT_IN_CORE, message: "@svc/core must not depend on frameworks or drivers." }],
      }],
    },
  },
  {
    // @svc/intel reads its bundled JSON files once, when it is loaded, instead of importing them
    // as JSON modules (which stay referenced for the life of the process): readFileSync only,
    // in this one file (docs/decisions/0091). Everything else stays as for the core.
    files: ["packages/intel/src/index.ts"],
    rules: {
      "no-restricted-imports": ["error", {
        paths: [
          ...NODE_IO.filter((m) => m !== "fs").flatMap((m) => [
            { name: `node:${m}`, message: "@svc/core is pure: I/O belongs in an adapter." },
            { name: m, message: "@svc/core is pure: I/O belongs in an adapter." },
          ]),
          { name: "@svc/server-ports", message: "The embedded library carries no server ports: @svc/server-ports builds on @svc/core, not the other way round." },
        ],
        patterns: [{ group: NOT_IN_CORE, message: "@svc/core must not depend on frameworks or drivers." }],
      }],
    },
  },
);
