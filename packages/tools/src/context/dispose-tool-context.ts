import type { ToolSession } from "@tackle/extensions";
import { closeTrackedTree } from "../audit/tracked-tree.js";
import { existingShellJobs } from "../shell/registry.js";
import { endBackgroundParses } from "../syntax/parse-after-read.js";

/** Options of {@link disposeToolContext}. */
export interface DisposeToolContextOptions {
  /**
   * Keep the session's artifacts on disk (they still expire by the store's retention time).
   * For a one-shot host, such as a CLI call, whose printed output points at an artifact.
   */
  keepArtifacts?: boolean;
}

/**
 * Ends what a tool context owns: background jobs not marked `keepAlive` (their records stay on
 * disk, so a later host still lists them), the background syntax parses of files it read, the
 * audit's watch on the working directory, its diagnostics providers (language servers) and,
 * unless asked otherwise, the session's artifacts.
 * The environment (`ctx.operations`) is not disposed: it may serve other contexts.
 *
 * A context from `createToolContext` does this with its own `dispose()` (which also refuses
 * later calls); this function is for contexts a host assembled itself.
 *
 * @example
 * ```ts
 * const ctx: ToolSession = { ...myFields, state: new SessionState(), artifacts: createArtifactStore({ operations, sessionId }) };
 * try { await runSession(ctx); } finally { await disposeToolContext(ctx); }
 * ```
 */
export async function disposeToolContext(
  ctx: ToolSession,
  options: DisposeToolContextOptions = {},
): Promise<void> {
  const failures: unknown[] = [];
  endBackgroundParses(ctx);
  const jobs = existingShellJobs(ctx);
  if (jobs) await jobs.dispose().catch((error: unknown) => failures.push(error));
  closeTrackedTree(ctx.state);
  for (const provider of ctx.diagnostics?.providers ?? []) {
    await provider.dispose().catch((error: unknown) => failures.push(error));
  }
  if (!options.keepArtifacts) await ctx.artifacts.dispose().catch((error: unknown) => failures.push(error));
  if (failures.length > 0) {
    throw new AggregateError(failures, `disposing the tool context of session ${ctx.session.id} failed`);
  }
}
