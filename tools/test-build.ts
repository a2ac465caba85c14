// vitest global setup: compiles every workspace to dist/ once before any test file runs, so tests
// that start a process (`svc`, the API, the worker, a bot) start the compiled JavaScript that
// production runs (tools/build.mjs is incremental: with nothing changed it costs milliseconds).
import { build } from "./build.mjs";

export default async function setup(): Promise<void> {
  await build({ quiet: true });
}
