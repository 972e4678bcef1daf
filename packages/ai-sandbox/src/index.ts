/**
 * `@tackle/ai-sandbox`: the AI SDK's sandbox session (`Experimental_SandboxSession` of `ai` 7)
 * both ways.
 *
 * - {@link createOperationsSandboxSession}: a sandbox session over any Tackle `Operations`, so
 *   the AI SDK's own tools and harnesses run on Tackle's environments with Tackle's path policy,
 *   mutation queue and atomic writes.
 */
export type { OperationsSandboxSessionOptions } from "./operations-session.js";
export { createOperationsSandboxSession } from "./operations-session.js";
export type {
  SandboxDirectoryEntry,
  SandboxFileStat,
  SandboxProcess,
  SandboxRunOptions,
  SandboxRunResult,
  SandboxSession,
  SandboxSessionLike,
  SandboxSpawnOptions,
} from "./sandbox-types.js";
