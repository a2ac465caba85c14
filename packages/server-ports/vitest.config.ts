import { defineProject } from "vitest/config";

export default defineProject({
  resolve: { tsconfigPaths: true },
  test: { name: "server-ports", include: ["src/**/*.test.ts"] },
});
