#!/usr/bin/env node
// The `svc` launcher: runs the compiled CLI (dist/). In a checkout of the repository it first
// brings every dist/ up to date (tools/build.mjs; with nothing changed that takes milliseconds);
// an installed copy has no tools/ and runs dist/ as shipped.
import { existsSync } from "node:fs";

const builder = new URL("../../../tools/build.mjs", import.meta.url);
if (existsSync(builder)) {
  const { build } = await import(builder.href);
  await build({ quiet: true });
}
await import("../dist/main.js");
