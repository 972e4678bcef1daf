/**
 * The grep and find sections of the tools conformance suite on this machine, with the native
 * search (bundled ripgrep) and without it (portable walk only).
 */
import { createLocalOperations } from "@tackle/operations-local";
import { afterAll, beforeAll, describe } from "vitest";
import { createToolContext } from "../src/context/create-tool-context.js";
import { createConformanceEnv, disposeConformanceEnv, type ToolsConformanceEnv } from "../src/testing/env.js";
import { defineFindConformance } from "../src/testing/find.js";
import { defineGrepConformance } from "../src/testing/grep.js";

for (const [name, rgPath] of [
  ["native", undefined],
  ["portable", false],
] as const) {
  describe(`search conformance: local, ${name}`, () => {
    const operations = createLocalOperations(rgPath === false ? { rgPath } : {});
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
}
