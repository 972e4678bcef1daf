import { type CoreErrorCode, ToolError } from "@tackle/agent-core";
import type { ExtensionContext, ResolvedPath, ToolDefinition } from "@tackle/extensions";
import { isOperationError } from "@tackle/operations";
import { readableArtifactDirectory } from "@tackle/session";
import { auditedMutations } from "../audit/workspace-audit.js";
import { DEFAULTS, formatBytes } from "../defaults.js";
import { recognizePatchCommand } from "../patch/heredoc.js";
import { runPatchCommand } from "../patch/shell-command.js";
import { toToolError } from "../tool-errors.js";
import { checkOptions, type OptionSpec } from "../tool-options.js";
import { startBackground } from "./background.js";
import { formatRun } from "./format.js";
import { runShellCommand, type ShellRunOutcome, type ToolShell } from "./pipeline.js";
import { checkPolicy, policyApproval, policyScope } from "./policy-gate.js";
import { findInputReaders } from "./policy-loader.js";
import { lastLine, SELECT_PROMPT } from "./prompt.js";
import { jobNote, sameCommandJobs, withJobNote } from "./same-command-jobs.js";
import { sandboxFailureHints, sandboxForCall } from "./sandbox.js";
import { type ShellToolDetails, type ShellToolOptions, shellParameters } from "./tool-contract.js";

export type {
  ShellToolDetails,
  ShellToolOptions,
  ShellToolParams,
  ShellToolSchema,
} from "./tool-contract.js";

/** What each option of the bash and powershell tools must be. */
const SHELL_OPTION_SPEC: OptionSpec = {
  env: "object",
  fastPath: "boolean",
  promptSilenceMs: "positive-number",
  pollIntervalMs: "positive-number",
  killGraceMs: "non-negative-number",
  reapLeftovers: "boolean",
  maxLines: "positive-integer",
  maxBytes: "positive-integer",
  maxOutputBytes: "positive-integer",
  defaultTimeoutSeconds: "positive-number",
  maxTimeoutSeconds: "positive-number",
  policy: "object",
  jobs: "object",
  patchCommands: "boolean",
  sandbox: "object-or-false",
};

/** The numbers a shell tool's description states, from the options in force. */
interface ShellLimits {
  defaultTimeout: number;
  maxTimeout: number;
  maxLines: number;
  maxBytes: number;
  maxOutput: number;
}

function description(shell: ToolShell, label: string, limits: ShellLimits, patches: boolean): string {
  const { defaultTimeout, maxTimeout, maxOutput } = limits;
  const lines = [
    shell === "bash"
      ? "Run a bash command in the workspace (stdin closed, no terminal)."
      : "Run a PowerShell command (pwsh -NoProfile -NonInteractive) in the workspace (stdin closed, no terminal).",
    `Returns the exit code, the duration and the last ${limits.maxLines} lines or ${formatBytes(limits.maxBytes)} of output (stdout and stderr merged in order); the full output is kept in a file you can page with read.`,
    `Output is kept up to ${formatBytes(maxOutput)}: past that its first and last halves are kept (a marker between them says how much was dropped) and the command runs on.`,
    `timeout: seconds, default ${defaultTimeout}, max ${maxTimeout}; a timed-out command is stopped with its child processes.`,
    "Success is the exit code, not the text. Commands waiting for input are stopped: use non-interactive flags (-y, --yes, --no-pager, CI=true).",
    "For servers and watchers use background: true (optionally readyPattern or readyPort), then the jobs tool to see output or stop them.",
    `Some commands (recursive deletes of broad targets, writes outside the workspace, downloads piped into a shell, privilege escalation, interactive programs, leaving the workspace with cd) need approval or are refused by policy.`,
  ];
  if (label === "PowerShell") lines.push("Only offered where pwsh is installed.");
  if (patches)
    lines.push(
      "A command that is only apply_patch <<'EOF' with a '*** Begin Patch' patch is applied as a patch (all or nothing), not run.",
    );
  return lines.join("\n");
}

function errorCode(outcome: ShellRunOutcome): CoreErrorCode | "interactive_prompt" {
  if (outcome.prompt !== undefined || outcome.wantedInput) return "interactive_prompt";
  if (outcome.status === "timed-out") return "timeout";
  if (outcome.status === "cancelled") return "aborted";
  return "execution_failed";
}

/**
 * Whether a run looks like it waited for input: it failed or was stopped without printing
 * anything (bash's `read -p` shows no prompt without a terminal), or it ended at a prompt line
 * (a `select` menu's `#?`, a detected question). Whether it read stdin is then asked of the parse.
 */
function waitedForInput(outcome: ShellRunOutcome): boolean {
  if (outcome.status === "completed" || outcome.status === "unknown") return false;
  if (outcome.status === "cancelled" && outcome.prompt === undefined) return false;
  const last = lastLine(outcome.output).trim();
  return last === "" || last === SELECT_PROMPT || outcome.prompt !== undefined || outcome.wantedInput;
}

/**
 * Builds the bash or powershell tool on the shared pipeline. `available` lets powershell refuse
 * environments without pwsh before anything runs.
 */
export function createShellToolDefinition(
  shell: ToolShell,
  options: ShellToolOptions = {},
  available?: (ctx: ExtensionContext) => Promise<void>,
): ToolDefinition<ReturnType<typeof shellParameters>, ShellToolDetails> {
  const label = shell === "bash" ? "Bash" : "PowerShell";
  const patches = shell === "bash" && options.patchCommands !== false;
  const name = shell === "bash" ? "bash" : "powershell";
  checkOptions(`${name} tool`, options, SHELL_OPTION_SPEC);
  const maxTimeout = options.maxTimeoutSeconds ?? DEFAULTS.shellMaxTimeoutSeconds;
  // A lower maximum alone lowers the default with it; a default given above the maximum is a mistake.
  const defaultTimeout = options.defaultTimeoutSeconds ?? Math.min(DEFAULTS.shellTimeoutSeconds, maxTimeout);
  if (defaultTimeout > maxTimeout) {
    throw new RangeError(
      `${name} tool: defaultTimeoutSeconds (${defaultTimeout}) is above maxTimeoutSeconds (${maxTimeout}); raise maxTimeoutSeconds or lower defaultTimeoutSeconds.`,
    );
  }
  const limits: ShellLimits = {
    defaultTimeout,
    maxTimeout,
    maxLines: options.maxLines ?? DEFAULTS.maxLines,
    maxBytes: options.maxBytes ?? DEFAULTS.maxBytes,
    maxOutput: options.maxOutputBytes ?? DEFAULTS.shellOutputMaxBytes,
  };
  return {
    name,
    label,
    description: description(shell, label, limits, patches),
    promptSnippet: `${name}: run ${label} commands (tests, builds, git); background jobs for servers`,
    promptGuidelines: [
      "Use non-interactive flags: commands get no stdin and no terminal.",
      "Judge success by the exit code, never by text in the output.",
    ],
    parameters: shellParameters(label, defaultTimeout, maxTimeout),
    executionMode: "sequential",
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    checkApproval: (params, ctx, signal) =>
      policyApproval(ctx, shell, params.command, params.cwd, options.policy, signal),
    async execute(toolCallId, params, signal, onUpdate, ctx) {
      if (available) await available(ctx);
      const audit = ctx.call.audit;
      const resolved = await ctx.workspace.resolve(params.cwd ?? ctx.cwd, "write", signal ? { signal } : {});
      const cwdError = (error: unknown) => workingDirectoryError(error, resolved, params.cwd !== undefined);
      try {
        const stat = await ctx.operations.stat(resolved.real, signal ? { signal } : {});
        if (stat.type !== "directory") {
          throw new ToolError(
            "not_directory",
            `cwd is not a directory: ${resolved.display} (${resolved.absolute}). Nothing was run; pass a directory as cwd.`,
          );
        }
      } catch (error) {
        throw cwdError(error);
      }
      const patchCommand = patches && !params.background ? recognizePatchCommand(params.command) : undefined;
      if (patchCommand) {
        const applied = await runPatchCommand(ctx, patchCommand, resolved.absolute, {
          toolCallId,
          signal,
          maxLines: limits.maxLines,
          maxBytes: limits.maxBytes,
        });
        const details: ShellToolDetails = {
          shell,
          command: params.command,
          cwd: resolved.real,
          policy: [],
          patch: applied.details,
        };
        return { content: [{ type: "text", text: applied.text }], details };
      }
      if (params.timeout !== undefined && !(params.timeout > 0)) {
        throw new ToolError(
          "invalid_arguments",
          `timeout must be a positive number of seconds; got ${params.timeout}. Send timeout as seconds above 0 and at most ${maxTimeout}, or leave it out for the default of ${defaultTimeout}.`,
        );
      }
      const requested = params.timeout ?? defaultTimeout;
      const timeoutSeconds = Math.min(requested, maxTimeout);
      // Sandboxed: the artifact directory is known first, so it is not among the writable roots.
      const artifactDir = options.sandbox ? await readableArtifactDirectory(ctx) : undefined;
      const sandbox = sandboxForCall(ctx, options.sandbox, artifactDir);
      const verdict = await checkPolicy(
        ctx,
        shell,
        params.command,
        resolved.real,
        options.policy,
        signal,
        audit,
        sandbox !== undefined && sandbox !== false,
      );
      const hits = verdict.hits;
      const stillRunning = await sameCommandJobs(ctx, params.command, audit, options.jobs);
      const base = {
        shell,
        command: params.command,
        cwd: resolved.real,
        policy: hits,
        ...(requested > maxTimeout ? { timeoutClamped: true } : {}),
      };

      if (params.background) {
        const started = await startBackground(
          ctx,
          shell,
          params,
          resolved.real,
          timeoutSeconds,
          base,
          options,
          signal,
          audit,
          sandbox,
        );
        return withJobNote(started, stillRunning);
      }

      await readableArtifactDirectory(ctx);
      // Inside the exclusive section: the workspace snapshots around the command (when audited).
      const outcome = await auditedMutations(ctx, resolved.real, audit, signal)
        .withExclusive(
          (workspace) =>
            runShellCommand(
              ctx.operations,
              ctx.artifacts,
              {
                shell,
                command: params.command,
                cwd: resolved.real,
                timeoutMs: timeoutSeconds * 1000,
                audit,
                ...(sandbox !== undefined ? { sandbox } : {}),
                ...(workspace ? { workspace } : {}),
                ...(signal ? { signal } : {}),
                ...(onUpdate
                  ? {
                      onProgress: (tail: string) => {
                        const lines = tail.split("\n");
                        onUpdate({
                          content: [{ type: "text", text: lines.slice(-50).join("\n") }],
                          details: base,
                        });
                      },
                    }
                  : {}),
              },
              options,
            ),
          signal ? { signal } : {},
        )
        .catch((error: unknown) => {
          // exec could not start (cwd gone, shell missing, connection lost): a typed ToolError.
          throw cwdError(error);
        });
      const { artifactHash: _hash, output: _output, ...run } = outcome;
      const details: ShellToolDetails = { ...base, run };
      const silent = waitedForInput(outcome);
      const readers =
        silent || outcome.status === "failed"
          ? (verdict.inputReaders ??
            (await findInputReaders(shell, params.command, policyScope(ctx, resolved.real))))
          : [];
      const waited = silent ? readers : [];
      const readStdin = silent ? [] : readers;
      if (waited.length > 0) details.waitedForInput = waited;
      if (readStdin.length > 0) details.readClosedStdin = readStdin;
      let text = formatRun(outcome, name, timeoutSeconds, maxTimeout, waited, readStdin);
      if (outcome.status !== "completed") {
        for (const hint of sandboxFailureHints(outcome.sandbox)) text += `\n${hint}`;
      }
      if (base.timeoutClamped)
        text += `\n(timeout ${requested} s was above the maximum; ${maxTimeout} s was used.)`;
      text += jobNote(stillRunning);
      if (outcome.status === "completed") return { content: [{ type: "text", text }], details };
      throw new ToolError(waited.length > 0 ? "interactive_prompt" : errorCode(outcome), text, { details });
    },
  };
}

/**
 * The error for a working directory the command cannot run in. A missing one is named in full:
 * "Not found: ." says nothing when the session's own cwd was removed.
 */
function workingDirectoryError(error: unknown, resolved: ResolvedPath, given: boolean): ToolError {
  if (!isOperationError(error, "not_found")) return toToolError(error, resolved.display);
  const message = given
    ? `Working directory not found: ${resolved.display} (${resolved.absolute}). Nothing was run. Use an existing directory as cwd (ls shows what exists), or create it first.`
    : `The session's working directory ${resolved.absolute} does not exist (removed or renamed). Nothing was run. Pass an existing directory as cwd.`;
  return new ToolError("not_found", message, { cause: error, details: { cwd: resolved.absolute } });
}
