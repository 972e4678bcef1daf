/**
 * The bash tool: a bash command through the environment's `exec`, on the shared shell pipeline
 * (artifacts, sanitised tail, prompt detection, escape hunting, background jobs, policy).
 */
import type { ToolDefinition } from "@tackle/extensions";
import {
  createShellToolDefinition,
  type ShellToolDetails,
  type ShellToolOptions,
  type ShellToolSchema,
} from "../shell/tool.js";

/** Options of the bash tool. */
export type BashToolOptions = ShellToolOptions;

/**
 * Creates the bash tool. Its environment comes from the context of each call.
 *
 * @example
 * ```ts
 * const bash = wrapToolDefinition(createBashToolDefinition({ policy: { decisions: { "privilege-escalation": "deny" } } }), () => ctx);
 * ```
 */
export function createBashToolDefinition(
  options: BashToolOptions = {},
): ToolDefinition<ShellToolSchema, ShellToolDetails> {
  return createShellToolDefinition("bash", options);
}
