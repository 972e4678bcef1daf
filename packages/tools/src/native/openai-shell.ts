/**
 * OpenAI's built-in `shell` tool (Responses API): the model sends `action.commands` (run in
 * order), an optional `timeoutMs` and `maxOutputLength`; the host answers `shell_call_output`
 * with one `{ stdout, stderr, outcome }` per command. Each command runs through the bash tool:
 * the shell pipeline, the command policy, the output budget, `apply_patch <<'EOF'` and audit.
 */
import { isToolError, ToolError, type ToolOutcome } from "@tackle/agent-core";
import { type Static, Type } from "@tackle/agent-core/typebox";
import type { ToolDefinition } from "@tackle/extensions";
import type { ShellToolDetails, ShellToolOptions } from "../shell/tool.js";
import type { BashErrorCode } from "../tools/bash.js";
import { createBashToolDefinition } from "../tools/bash.js";

const parameters = Type.Object({
  action: Type.Object({
    commands: Type.Array(Type.String(), { minItems: 1, description: "Commands to run, in order." }),
    timeoutMs: Type.Optional(Type.Number({ description: "Milliseconds each command may take." })),
    maxOutputLength: Type.Optional(Type.Number({ description: "Most characters of output per command." })),
  }),
});

/** Input of OpenAI's shell tool, as the AI SDK passes it. */
export type OpenAIShellInput = Static<typeof parameters>;

/** How one command ended: `shell_call_output`'s outcome (camelCase, as the AI SDK takes it). */
export type OpenAIShellOutcome = { type: "timeout" } | { type: "exit"; exitCode: number };

/** One command's entry of `shell_call_output`. */
export interface OpenAIShellCommandOutput {
  stdout: string;
  stderr: string;
  outcome: OpenAIShellOutcome;
}

/** What the tool reports: the provider's output, plus each command's bash details. */
export interface OpenAIShellDetails {
  output: OpenAIShellCommandOutput[];
  commands: (ShellToolDetails | undefined)[];
}

/**
 * Exit code given to a command that never ran (refused by the command policy, a working
 * directory outside the workspace): 126, the shell's "found but could not be executed". The
 * reason is in stderr.
 */
export const NOT_RUN_EXIT_CODE = 126;

/** The shell tool's answer for the provider: `{ output }`, from the details (or the error text). */
export function toOpenAIShellOutput(outcome: ToolOutcome): { output: OpenAIShellCommandOutput[] } {
  const details = outcome.details as OpenAIShellDetails | undefined;
  if (details && Array.isArray(details.output)) return { output: details.output };
  const text = outcome.content.map((part) => (part.type === "text" ? part.text : "")).join("\n");
  return { output: [{ stdout: "", stderr: text, outcome: { type: "exit", exitCode: NOT_RUN_EXIT_CODE } }] };
}

/** The tool behind OpenAI's built-in shell: name `shell`, input `{ action }`. */
export function createOpenAIShellToolDefinition(
  options: ShellToolOptions = {},
): ToolDefinition<typeof parameters, OpenAIShellDetails, BashErrorCode> {
  const bash = createBashToolDefinition(options);
  return {
    name: "shell",
    label: "Shell (OpenAI)",
    // The provider takes back `{ output }` (one entry per command), not text.
    providerTool: { id: "openai.shell", toResult: toOpenAIShellOutput },
    description: bash.description,
    parameters,
    executionMode: "sequential",
    errorCodes: bash.errorCodes,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    async execute(toolCallId, params, signal, _onUpdate, ctx) {
      const { commands, timeoutMs, maxOutputLength } = params.action;
      if (timeoutMs !== undefined && !(timeoutMs > 0)) {
        throw new ToolError(
          "invalid_arguments",
          `timeoutMs must be above 0; got ${timeoutMs}. Leave it out for the default.`,
        );
      }
      const output: OpenAIShellCommandOutput[] = [];
      const details: (ShellToolDetails | undefined)[] = [];
      for (const command of commands) {
        const args = {
          command,
          ...(timeoutMs !== undefined ? { timeout: Math.ceil(timeoutMs / 1000) } : {}),
        };
        try {
          const result = await bash.execute(toolCallId, args, signal, undefined, ctx);
          const text = result.content.map((part) => (part.type === "text" ? part.text : "")).join("\n");
          output.push({
            stdout: cut(text, maxOutputLength),
            stderr: "",
            outcome: { type: "exit", exitCode: 0 },
          });
          details.push(result.details);
        } catch (error) {
          if (!isToolError(error)) throw error;
          if (error.code === "aborted") throw error;
          const shell = error.details as ShellToolDetails | undefined;
          const run = shell?.run;
          const ended: OpenAIShellOutcome =
            error.code === "timeout"
              ? { type: "timeout" }
              : { type: "exit", exitCode: run?.exitCode ?? NOT_RUN_EXIT_CODE };
          // A run's text (its output and status) is what the model reads; a refusal goes to stderr.
          output.push(
            run
              ? { stdout: cut(error.message, maxOutputLength), stderr: "", outcome: ended }
              : { stdout: "", stderr: cut(error.message, maxOutputLength), outcome: ended },
          );
          details.push(shell);
        }
      }
      const text = output
        .map((entry, i) => `$ ${commands[i]}\n${entry.stdout}${entry.stderr}`.trimEnd())
        .join("\n\n");
      return { content: [{ type: "text", text }], details: { output, commands: details } };
    },
  };
}

/** The last `max` characters of `text` (the end of an output is where errors are), marked when cut. */
function cut(text: string, max: number | undefined): string {
  if (max === undefined || !(max > 0) || text.length <= max) return text;
  return `[first ${text.length - max} characters cut]\n${text.slice(text.length - max)}`;
}
