import type { ExtensionContext } from "@tackle/extensions";
import { createJobRegistry, type JobRegistry, type JobRegistryOptions, SHELL_JOBS_SERVICE } from "./jobs.js";

const fallbacks = new WeakMap<object, JobRegistry>();

/**
 * The job registry of a context: the host's, from `ctx.services["shell.jobs"]`, or else one
 * kept per session (keyed by the context's artifact store, which is per session). Hosts that
 * want jobs ended on dispose put their own registry in `services` and call its `dispose()`.
 */
export function getShellJobs(ctx: ExtensionContext, options: Partial<JobRegistryOptions> = {}): JobRegistry {
  const service = ctx.services?.[SHELL_JOBS_SERVICE] as JobRegistry | undefined;
  if (service && typeof service.start === "function") return service;
  let registry = fallbacks.get(ctx.artifacts);
  if (!registry) {
    registry = createJobRegistry({ ...options, operations: ctx.operations, sessionId: ctx.session.id });
    fallbacks.set(ctx.artifacts, registry);
  }
  return registry;
}

/**
 * The job registry a context already uses, without creating one: the host's service, or the
 * per-session fallback once a job was started. Used by {@link disposeToolContext}.
 */
export function existingShellJobs(ctx: ExtensionContext): JobRegistry | undefined {
  const service = ctx.services?.[SHELL_JOBS_SERVICE] as JobRegistry | undefined;
  if (service && typeof service.start === "function") return service;
  return fallbacks.get(ctx.artifacts);
}
