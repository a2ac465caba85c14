import { defineConfig } from "vitest/config";

// Workers: vitest's default is one fewer than the cores, so a single worker on a 2-core CI
// machine, and the suite ran one file at a time. Most of the slow files spend their time
// waiting: on child processes (the CLI, `npm start`, worker processes), on PostgreSQL, on
// sockets. Three workers keep both cores busy while those files wait (see docs/benchmarks.md,
// "Test suite"). `--maxWorkers=1` on the command line still runs one file at a time.
export default defineConfig({
  test: { projects: ["packages/*", "apps/*", "tools"], maxWorkers: 3 },
});
