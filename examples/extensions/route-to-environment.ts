// A tool override that routes one tool to another environment: e.g. `bash` runs in a sandbox
// container while read/edit stay local. The tool's code is unchanged; only its context is.

import {
  type AnyToolDefinition,
  defineExtension,
  type Extension,
  type ExtensionContext,
} from "@tackle/extensions";

/**
 * The environment calls are sent to: everything in a context that belongs to one environment.
 * The mutation queue, artifact store, read ledger and session state (the shell's jobs) go with
 * the operations: a shell writes its output artifact through the target's own files, and a read
 * recorded on this machine says nothing about a file of the same path in a container.
 */
export interface TargetEnvironment
  extends Pick<
    ExtensionContext,
    "cwd" | "operations" | "workspace" | "mutations" | "artifacts" | "reads" | "state"
  > {
  /** A name for logs and results. */
  name: string;
}

/**
 * An extension that overrides `definition` (usually a built-in of the same name) with a copy
 * whose calls run in `target`. What belongs to the person and the session (ui, session,
 * logger, signal) stays.
 */
export function routeToEnvironment(definition: AnyToolDefinition, target: TargetEnvironment): Extension {
  return defineExtension({
    name: `route-${definition.name}-to-${target.name}`,
    setup(api) {
      api.registerTool({
        ...definition,
        description: `${definition.description}\nRuns in the ${target.name} environment (working directory ${target.cwd}).`,
        execute(toolCallId, params, signal, onUpdate, ctx) {
          const routed: ExtensionContext = {
            ...ctx,
            cwd: target.cwd,
            operations: target.operations,
            workspace: target.workspace,
            mutations: target.mutations,
            artifacts: target.artifacts,
            reads: target.reads,
            state: target.state,
          };
          return definition.execute(toolCallId, params, signal, onUpdate, routed);
        },
      });
    },
  });
}
