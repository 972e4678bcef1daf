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
import { PATCH_ERROR_CODES, toolErrorCodes } from "../tool-error-codes.js";

/**
 * What bash fails with beyond the core's codes: a command waiting for input, and the patch
 * engine's codes for a command that is an `apply_patch` heredoc (applied as a patch).
 */
const BASH_ERROR_CODES = { ...toolErrorCodes("interactive_prompt"), ...PATCH_ERROR_CODES };
/** The codes bash declares (beside the core's). */
export type BashErrorCode = keyof typeof BASH_ERROR_CODES;

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
): ToolDefinition<ShellToolSchema, ShellToolDetails, BashErrorCode> {
  return { ...createShellToolDefinition("bash", options), errorCodes: BASH_ERROR_CODES };
}
