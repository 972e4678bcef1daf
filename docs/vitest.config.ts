import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    // Building the site (TypeDoc, then VitePress) on a loaded machine takes minutes.
    hookTimeout: 900_000,
  },
});
