import { defineProject } from "vitest/config";

export default defineProject({
  resolve: { tsconfigPaths: true },
  test: {
    name: "bot-whatsapp",
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // Every conversation is real HTTP, a real database and a fake platform on 127.0.0.1: slow on a busy machine.
    testTimeout: 30_000,
  },
});
