import { tmpdir } from "node:os";
import { afterAll, beforeAll, describe } from "vitest";
import { createToolContext } from "../src/context/create-tool-context.js";
import { defineEditConformance } from "../src/testing/edit.js";
import { createConformanceEnv, disposeConformanceEnv, type ToolsConformanceEnv } from "../src/testing/env.js";

// The edit section of the tools suite on local operations (SSH and Docker adapters run it too).
describe("tools conformance: edit on local operations", () => {
  let env: ToolsConformanceEnv;
  beforeAll(async () => {
    env = await createConformanceEnv((cwd) => createToolContext({ cwd }), tmpdir());
  });
  afterAll(async () => {
    await disposeConformanceEnv(env);
  });
  defineEditConformance(() => env);
});
