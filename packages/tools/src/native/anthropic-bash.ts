/**
 * Anthropic's bash tool (`bash_20250124`): `{ command }` runs a command, `{ restart: true }`
 * restarts the session. Commands run through the bash tool (the shell pipeline, the command
 * policy, the output budget, audit). Tackle starts a fresh shell per command, so what a session
 * keeps is its working directory: a command that is only `cd <dir>` moves it (inside the
 * workspace), and restart puts it back at the context's cwd.
 */
import { ToolError } from "@tackle/agent-core";
import { type Static, Type } from "@tackle/agent-core/typebox";
import type { ToolDefinition } from "@tackle/extensions";
import { pathSyntax } from "@tackle/session";
import type { ShellToolDetails, ShellToolOptions } from "../shell/tool.js";
import type { BashErrorCode } from "../tools/bash.js";
import { createBashToolDefinition } from "../tools/bash.js";

const parameters = Type.Object({
  command: Type.Optional(Type.String({ description: "The bash command to run." })),
  restart: Type.Optional(Type.Boolean({ description: "Restart the bash session." })),
});

/** Input of the bash tool, as Anthropic's API sends it. */
export type AnthropicBashInput = Static<typeof parameters>;

/** A command that only changes directory: `cd <dir>` (one word, optionally quoted). */
const CD_ONLY = /^\s*cd\s+(?<dir>'[^']*'|"[^"]*"|[^\s'";&|<>$`]+)\s*;?\s*$/;

/** What the tool reports: the bash tool's details, or the session change. */
export type AnthropicBashDetails = ShellToolDetails | { session: "restarted" | "cd"; cwd: string };

/**
 * The bash tool for `bash_20250124` (name `bash`). Make one per session: it holds the session's
 * working directory.
 */
export function createAnthropicBashToolDefinition(
  options: ShellToolOptions = {},
): ToolDefinition<typeof parameters, AnthropicBashDetails, BashErrorCode> {
  const bash = createBashToolDefinition(options);
  let cwd: string | undefined;
  return {
    name: "bash",
    label: "Bash (Anthropic)",
    providerTool: { id: "anthropic.bash_20250124" },
    description: bash.description,
    parameters,
    executionMode: "sequential",
    errorCodes: bash.errorCodes,
    annotations: bash.annotations,
    async execute(toolCallId, params, signal, onUpdate, ctx) {
      if (params.restart) {
        cwd = undefined;
        return {
          content: [
            {
              type: "text",
              text: `The bash session was restarted; the working directory is ${ctx.cwd} again.`,
            },
          ],
          details: { session: "restarted", cwd: ctx.cwd },
        };
      }
      if (params.command === undefined || params.command.trim() === "") {
        throw new ToolError(
          "invalid_arguments",
          "Send command (the bash command to run), or restart: true to restart the session.",
        );
      }
      const cd = CD_ONLY.exec(params.command)?.groups?.dir;
      if (cd !== undefined) {
        const dir = cd.replace(/^(['"])(.*)\1$/, "$2");
        const base = cwd ?? ctx.cwd;
        const syntax = pathSyntax(ctx.operations.platform);
        const wanted = dir.startsWith("~") ? dir : syntax.resolve(base, dir);
        const target = await ctx.workspace.resolve(wanted, "write", { signal });
        const stat = await ctx.operations.stat(target.real, { signal }).catch(() => undefined);
        if (stat?.type !== "directory") {
          throw new ToolError(
            "not_found",
            `cd: no such directory: ${target.display}. The working directory stays ${base}.`,
          );
        }
        cwd = target.real;
        return {
          content: [{ type: "text", text: `Working directory: ${target.real}` }],
          details: { session: "cd", cwd: target.real },
        };
      }
      return bash.execute(
        toolCallId,
        { command: params.command, ...(cwd !== undefined ? { cwd } : {}) },
        signal,
        onUpdate,
        ctx,
      );
    },
  };
}
