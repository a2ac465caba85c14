import { defineProject } from "vitest/config";

// The property tests are CPU-bound (hundreds of generated values each): with the suite's three
// workers sharing two cores one took 5.5 s, past vitest's default 5 s.
export default defineProject({
  resolve: { tsconfigPaths: true },
  test: { name: "core", include: ["src/**/*.test.ts", "test/**/*.test.ts"], testTimeout: 30_000 },
});
