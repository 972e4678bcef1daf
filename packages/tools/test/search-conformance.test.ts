/**
 * The grep and find sections of the tools conformance suite on this machine without a native
 * search, so every call takes the portable walk (test/conformance-local.test.ts runs the whole
 * suite, these sections included, with the bundled ripgrep).
 */
import { createLocalOperations } from "@tackle/operations-local";
import { afterAll, beforeAll, describe } from "vitest";
import { createToolContext } from "../src/context/create-tool-context.js";
import { createConformanceEnv, disposeConformanceEnv, type ToolsConformanceEnv } from "../src/testing/env.js";
import { defineFindConformance } from "../src/testing/find.js";
import { defineGrepConformance } from "../src/testing/grep.js";

describe("search conformance: local, portable walk only", () => {
  const operations = createLocalOperations({ rgPath: false });
  let env: ToolsConformanceEnv | undefined;
  const getEnv = () => {
    if (!env) throw new Error("environment not set up");
    return env;
  };
  beforeAll(async () => {
    env = await createConformanceEnv((cwd) => createToolContext({ cwd, operations }), "/tmp");
  });
  afterAll(async () => {
    if (env) await disposeConformanceEnv(env);
  });
  defineGrepConformance(getEnv);
  defineFindConformance(getEnv);
});
