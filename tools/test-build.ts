// vitest global setup, once before any test file runs:
// - compiles every workspace to dist/, so tests that start a process (`svc`, the API, the worker,
//   a bot) start the compiled JavaScript production runs (tools/build.mjs is incremental: with
//   nothing changed it costs milliseconds);
// - makes the initialised-cluster image new embedded databases start from (pglite-template.ts), so
//   the test files starting at once do not each run initdb to make it.
import { freshClusterImage } from "@svc/persistence";
import { build } from "./build.mjs";

export default async function setup(): Promise<void> {
  await Promise.all([build({ quiet: true }), freshClusterImage()]);
}
