// A tool override that routes one tool to another environment: e.g. `bash` runs in a sandbox
// container while read/edit stay local. The tool's code is unchanged; only its context is.

import {
  type AnyToolDefinition,
  defineExtension,
  type Extension,
  type ExtensionContext,
  type WorkspacePolicy,
} from "@tackle/extensions";
import type { Operations } from "@tackle/operations";

/** The environment calls are sent to. */
export interface TargetEnvironment {
  /** A name for logs and results. */
  name: string;
  cwd: string;
  operations: Operations;
  workspace: WorkspacePolicy;
}

/**
 * An extension that overrides `definition` (usually a built-in of the same name) with a copy
 * whose calls run in `target`. Everything else in the context (ui, session, logger) stays.
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
          };
          return definition.execute(toolCallId, params, signal, onUpdate, routed);
        },
      });
    },
  });
}
