/**
 * `@tackle/ai-sandbox`: the AI SDK's sandbox session (`Experimental_SandboxSession` of `ai` 7)
 * both ways.
 *
 * - {@link createOperationsSandboxSession}: a sandbox session over any Tackle `Operations`, so
 *   the AI SDK's own tools and harnesses run on Tackle's environments with Tackle's path policy,
 *   mutation queue and atomic writes.
 * - {@link createSandboxSessionOperations}: Tackle's `Operations` over any sandbox session, so
 *   Tackle's tools run on Vercel Sandbox, E2B, just-bash or any engine the AI SDK speaks to.
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
export type {
  SandboxSessionMode,
  SandboxSessionOperations,
  SandboxSessionOperationsOptions,
} from "./session-operations.js";
export { createSandboxSessionOperations } from "./session-operations.js";
