import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/global-state.ts"],
    // Tests spawn the binary several times; on a loaded machine each spawn takes seconds.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
