import { defineProject } from "vitest/config";

export default defineProject({
  resolve: { tsconfigPaths: true },
  test: { name: "sdk", include: ["src/**/*.test.ts"] },
});
