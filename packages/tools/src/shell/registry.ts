import { type ExtensionContext, type SessionKey, sessionKey } from "@tackle/extensions";
import { createJobRegistry, type JobRegistry, type JobRegistryOptions } from "./jobs.js";

/**
 * Where a session keeps its shell job registry (`ctx.state`). A host that manages jobs itself
 * puts its registry there (`createToolContext({ jobs })` does); otherwise the first background
 * job of the session makes one.
 */
export const SHELL_JOBS: SessionKey<JobRegistry> = sessionKey<JobRegistry>("shell.jobs");

/**
 * The job registry of a session: the host's, or else one made on first use and kept in the
 * session's state, so `dispose()` of the context ends its jobs.
 */
export function getShellJobs(ctx: ExtensionContext, options: Partial<JobRegistryOptions> = {}): JobRegistry {
  return ctx.state.getOrCreate(SHELL_JOBS, () =>
    createJobRegistry({ ...options, operations: ctx.operations, sessionId: ctx.session.id }),
  );
}

/**
 * The job registry a session already uses, without creating one. Used by `disposeToolContext`
 * and by the check for the same command still running.
 */
export function existingShellJobs(ctx: Pick<ExtensionContext, "state">): JobRegistry | undefined {
  return ctx.state.get(SHELL_JOBS);
}
