import { defineProject } from "vitest/config";

export default defineProject({
  resolve: { tsconfigPaths: true },
  test: { name: "tools", include: ["**/*.test.ts"], exclude: ["**/node_modules/**", "soak/faults.test.ts", "deploy/layout.test.ts"] },
});
