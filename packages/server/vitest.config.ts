import { defineProject } from "vitest/config";

// Three workers share two cores in the suite: CPU-heavy tests get more than vitest's 5 s default.
export default defineProject({
  resolve: { tsconfigPaths: true },
  test: { name: "server", include: ["src/**/*.test.ts", "test/**/*.test.ts"], exclude: ["**/node_modules/**", "src/shutdown.test.ts", "src/http-server.test.ts", "src/scale-out.test.ts"], testTimeout: 30_000, hookTimeout: 60_000 },
});
