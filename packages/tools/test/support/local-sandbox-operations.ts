import { createLocalOperations } from "@tackle/operations-local";
import type { SandboxTestOperations } from "../../src/testing/sandbox-env.js";

/** The local adapter for the sandbox test env: its commands see the fake home as `HOME`. */
export const localSandboxOperations: SandboxTestOperations = async (home) => {
  const operations = createLocalOperations({ env: { ...process.env, HOME: home } });
  return { operations, dispose: async () => operations.dispose?.() };
};
