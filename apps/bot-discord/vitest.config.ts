import { defineProject } from "vitest/config";

export default defineProject({
  resolve: { tsconfigPaths: true },
  test: { name: "bot-discord", include: ["src/**/*.test.ts", "test/**/*.test.ts"] },
});
