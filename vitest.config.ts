import { defineConfig } from "vitest/config";

// Root tests only (repository rules such as layering). Each package runs its own suite through turbo.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
  },
});
