import { BaseSequencer, type TestSpecification } from "vitest/node";
import { defineConfig } from "vitest/config";

// The files that take longest (child processes, lease timeouts), measured in docs/benchmarks.md.
// A fresh clone has no vitest timing cache, so vitest would start them in project order and the
// last of them (the worker's) would run alone at the end; they start first instead.
const SLOW_FIRST = [
  "apps/cli/test/server.test.ts",
  "apps/cli/test/audit.test.ts",
  "apps/cli/test/library.test.ts",
  "apps/cli/test/keys-lock.test.ts",
  "packages/server/src/async.test.ts",
  "apps/cli/test/cli.test.ts",
  "apps/worker/src/worker.test.ts",
  "packages/jobs/src/queue/job-queue.test.ts",
  "packages/persistence/src/pglite.test.ts",
];

class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification): number => {
      const i = SLOW_FIRST.findIndex((s) => f.moduleId.replaceAll("\\", "/").endsWith(s));
      return i < 0 ? SLOW_FIRST.length : i;
    };
    return sorted.map((f, i) => ({ f, i, r: rank(f) })).sort((a, b) => a.r - b.r || a.i - b.i).map((x) => x.f);
  }
}

// Workers: vitest's default is one fewer than the cores, so a single worker on a 2-core CI
// machine, and the suite ran one file at a time. Most of the slow files spend their time
// waiting: on child processes (the CLI, `npm start`, worker processes), on PostgreSQL, on
// sockets. Three workers keep both cores busy while those files wait (see docs/benchmarks.md,
// "Test suite"). `--maxWorkers=1` on the command line still runs one file at a time.
// Tests that measure how the service behaves under its own load (a SIGTERM drain racing 120
// requests, a database restart and blackhole under load, worker kills) run after everything
// else, one file at a time: on a 2-core machine the rest of the suite would starve the
// processes they time. They are listed in TIMING_FILES and left out of their own projects. The
// deployment layout test (an `npm ci --omit=dev` and every process started from its result)
// runs there too: it is long, and heavy on disk and CPU.
export const TIMING_FILES = ["packages/server/src/shutdown.test.ts", "packages/server/src/http-server.test.ts", "packages/server/src/scale-out.test.ts", "tools/soak/faults.test.ts", "tools/deploy/layout.test.ts"];

export default defineConfig({
  test: {
    projects: [
      "packages/*", "apps/*", "tools",
      {
        resolve: { tsconfigPaths: true },
        test: { name: "timing", include: TIMING_FILES, testTimeout: 180_000, hookTimeout: 120_000, fileParallelism: false, sequence: { groupOrder: 1 } },
      },
    ],
    maxWorkers: 3,
    // Compiles every workspace once, so the tests that start processes run the compiled dist/.
    globalSetup: ["tools/test-build.ts"],
    sequence: { sequencer: SlowFirstSequencer },
  },
});
