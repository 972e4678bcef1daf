/** The shapes of the bash and powershell tools: options, arguments, details. */
import { type Static, Type } from "@tackle/agent-core/typebox";
import type { ApplyPatchDetails } from "../patch/apply.js";
import type { JobRecord } from "./job-record.js";
import type { JobRegistry } from "./jobs.js";
import type { ShellPipelineOptions } from "./pipeline.js";
import type { InputReader, PolicyConfig, PolicyHit } from "./policy-contract.js";
import type { ShellRunOutcome, ToolShell } from "./run-outcome.js";

/** Options of the bash and powershell tools. */
export interface ShellToolOptions extends ShellPipelineOptions {
  /** Timeout when the call gives none, seconds (default `DEFAULTS.shellTimeoutSeconds`). */
  defaultTimeoutSeconds?: number;
  /** Largest timeout a call may ask for, seconds (default `DEFAULTS.shellMaxTimeoutSeconds`). */
  maxTimeoutSeconds?: number;
  /** Command policy: decisions per rule, writable paths outside the workspace, or off. */
  policy?: PolicyConfig;
  /** Job registry for `background: true` (default: the context's, see `getShellJobs`). */
  jobs?: JobRegistry;
  /**
   * bash: apply a command that is only `apply_patch <<'EOF'` ... `EOF` (optionally after
   * `cd <dir> &&`) with the patch engine instead of running it, as Codex-trained models expect.
   * Default true.
   */
  patchCommands?: boolean;
}

/** Structured result for hosts (never parsed back into model text). */
export interface ShellToolDetails {
  shell: ToolShell;
  command: string;
  cwd: string;
  /** Policy findings that were allowed or confirmed. */
  policy: PolicyHit[];
  /** Foreground run: how it ended, artifact, cleanup. */
  run?: Omit<ShellRunOutcome, "artifactHash" | "output">;
  /** Background run: the job as recorded. */
  job?: JobRecord;
  ready?: "ready" | "ended" | "timeout";
  /** The call asked for a timeout above the maximum and got the maximum. */
  timeoutClamped?: boolean;
  /** It failed or stalled without output and these commands read the closed stdin. */
  waitedForInput?: InputReader[];
  /**
   * It failed after printing something and these commands read the closed stdin: they got an
   * empty answer, which may be why (the text says so as a condition; the code stays the run's).
   */
  readClosedStdin?: InputReader[];
  /** Set when the command was an `apply_patch` heredoc: what the patch did (no process ran). */
  patch?: ApplyPatchDetails;
}

/** The argument schema of a shell tool: its label and timeouts go into the descriptions. */
export function shellParameters(label: string, defaultTimeout: number, maxTimeout: number) {
  return Type.Object({
    command: Type.String({ description: `The ${label} command to run.` }),
    timeout: Type.Optional(
      Type.Number({
        description: `Seconds before the command is stopped (default ${defaultTimeout}, max ${maxTimeout}).`,
      }),
    ),
    cwd: Type.Optional(
      Type.String({ description: "Working directory inside the workspace (default: the session's cwd)." }),
    ),
    background: Type.Optional(
      Type.Boolean({
        description: "Start it as a background job and return its id at once (servers, watchers).",
      }),
    ),
    readyPattern: Type.Optional(
      Type.String({
        description: "Background: wait until the job's output matches this regular expression.",
      }),
    ),
    readyPort: Type.Optional(
      Type.Integer({ description: "Background: wait until this TCP port on 127.0.0.1 accepts connections." }),
    ),
    keepAlive: Type.Optional(
      Type.Boolean({ description: "Background: keep the job running after the session ends." }),
    ),
  });
}

/** Schema of the bash and powershell tool arguments. */
export type ShellToolSchema = ReturnType<typeof shellParameters>;

/** Parameters of the bash and powershell tools. */
export type ShellToolParams = Static<ReturnType<typeof shellParameters>>;
