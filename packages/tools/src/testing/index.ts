/**
 * `@tackle/tools/testing`: the tools conformance suite. Every adapter runs it unchanged:
 *
 * ```ts
 * describeToolsConformance("local", (cwd) => createToolContext({ cwd, operations: createLocalOperations() }));
 * ```
 */
import { afterAll, beforeAll, describe } from "vitest";
import { defineApplyPatchConformance } from "./apply-patch.js";
import { defineAuditConformance } from "./audit.js";
import { defineBashConformance } from "./bash.js";
import { DEFAULT_CONCURRENT_EDIT_ROUNDS, defineConcurrentEditConformance } from "./concurrent-edits.js";
import { defineConcurrentPatchConformance } from "./concurrent-patches.js";
import { defineEditConformance } from "./edit.js";
import {
  createConformanceEnv,
  disposeConformanceEnv,
  type MakeToolsContext,
  type ToolsConformanceEnv,
} from "./env.js";
import { defineFindConformance } from "./find.js";
import { defineGrepConformance } from "./grep.js";
import { defineLsConformance } from "./ls.js";
import { defineNativeToolsConformance } from "./native-tools.js";
import { definePathNamesConformance } from "./paths.js";
import { defineReadConformance } from "./read.js";
import { defineWriteConformance } from "./write.js";

export type { PreparedPatchCase } from "./apply-patch.js";
export { defineApplyPatchConformance, preparePatchCase } from "./apply-patch.js";
export { defineAuditConformance } from "./audit.js";
export { defineBashConformance } from "./bash.js";
export { DEFAULT_CONCURRENT_EDIT_ROUNDS, defineConcurrentEditConformance } from "./concurrent-edits.js";
export { defineConcurrentPatchConformance, MAX_CONCURRENT_PATCH_ROUNDS } from "./concurrent-patches.js";
export { defineEditConformance } from "./edit.js";
export type { DirectorySwap, FixtureEntry, MakeToolsContext, ToolsConformanceEnv } from "./env.js";
export {
  callWithDirectorySwapped,
  createConformanceEnv,
  disposeConformanceEnv,
  textOf,
  withPolicyProbe,
} from "./env.js";
export { defineFindConformance } from "./find.js";
export { defineGrepConformance, portableContext, withoutNativeSearch } from "./grep.js";
export { defineLsConformance } from "./ls.js";
export { defineNativeToolsConformance } from "./native-tools.js";
export type { PatchCase } from "./patch-corpus.js";
export { PATCH_CORPUS } from "./patch-corpus.js";
export { definePathNamesConformance } from "./paths.js";
export { defineReadConformance } from "./read.js";
export type { SandboxTestEnv, SandboxTestOperations } from "./sandbox-env.js";
export { createSandboxTestEnv, PLANTED, PLANTED_FILES } from "./sandbox-env.js";
export { describeSandboxEscapeCorpus } from "./sandbox-escapes.js";
export { defineWriteConformance } from "./write.js";

/** Options for {@link describeToolsConformance}. */
export interface ToolsConformanceOptions {
  /** Directory in the environment under which the suite makes its fresh root. Default `/tmp`. */
  baseDir?: string;
  /**
   * Edits per writer in the concurrent-edit checks (two contexts each editing their own line of
   * one file; default {@link DEFAULT_CONCURRENT_EDIT_ROUNDS}). A remote adapter may lower it to
   * keep the suite fast; run the default at least once.
   */
  concurrentEditRounds?: number;
  /**
   * A context on a second adapter object of the same environment (a second connection), for the
   * concurrent-edit checks: two adapters in one host. Without it the second context comes from
   * `makeContext`.
   */
  makeSecondContext?: MakeToolsContext;
}

/**
 * Registers the tools suite: a fresh root in the environment (built through `ctx.operations`),
 * then every tool's behaviour list. `makeContext(cwd)` must return a context whose cwd and
 * workspace root are `cwd`.
 */
export function describeToolsConformance(
  name: string,
  makeContext: MakeToolsContext,
  options: ToolsConformanceOptions = {},
): void {
  describe(`tools conformance: ${name}`, () => {
    let env: ToolsConformanceEnv | undefined;
    const getEnv = (): ToolsConformanceEnv => {
      if (!env) throw new Error("tools conformance environment was not set up");
      return env;
    };
    beforeAll(async () => {
      env = await createConformanceEnv(makeContext, options.baseDir ?? "/tmp");
    });
    afterAll(async () => {
      if (env) await disposeConformanceEnv(env);
    });
    defineReadConformance(getEnv);
    defineWriteConformance(getEnv);
    defineEditConformance(getEnv);
    defineApplyPatchConformance(getEnv);
    defineNativeToolsConformance(getEnv);
    defineConcurrentEditConformance(
      getEnv,
      options.concurrentEditRounds ?? DEFAULT_CONCURRENT_EDIT_ROUNDS,
      options.makeSecondContext,
    );
    defineConcurrentPatchConformance(
      getEnv,
      options.concurrentEditRounds ?? DEFAULT_CONCURRENT_EDIT_ROUNDS,
      options.makeSecondContext,
    );
    defineGrepConformance(getEnv);
    defineFindConformance(getEnv);
    defineLsConformance(getEnv);
    definePathNamesConformance(getEnv);
    defineBashConformance(getEnv);
    defineAuditConformance(getEnv);
  });
}
