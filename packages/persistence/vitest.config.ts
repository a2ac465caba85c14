import { defineProject } from "vitest/config";

export default defineProject({
  resolve: { tsconfigPaths: true },
  test: { name: "persistence", include: ["src/**/*.test.ts", "test/**/*.test.ts"] },
});
