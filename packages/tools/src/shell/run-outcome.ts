/** What a foreground shell run reports once it has ended and been cleaned up. */
import type { ArtifactInfo } from "@tackle/extensions";
import type { ExecCleanup, ExecStatus, OutputCut, SandboxReport } from "@tackle/operations";
import type { TruncationResult } from "../truncate.js";
import type { EscapeHuntResult } from "./escape.js";

/** Shell of a tool (the environment's `sh` is used only for cleanup). */
export type ToolShell = "bash" | "pwsh";

/** How a run ended, after cleanup, with what the model will see. */
export interface ShellRunOutcome {
  /** `unknown` also when escaped processes could not be confirmed ended. */
  status: ExecStatus;
  exitCode?: number;
  signal?: string;
  elapsedMs: number;
  /** Bytes in the artifact (both streams; with `budgetCut`, head + marker line + tail). */
  totalBytes: number;
  /** The output budget in force. */
  outputLimitBytes: number;
  /** The output went past the budget: what the artifact kept and what it dropped. */
  budgetCut?: OutputCut;
  /** The artifact that holds all output, in arrival order. */
  artifact: ArtifactInfo;
  /** Resolves to the artifact's sha256 once hashed (immediately for small outputs). */
  artifactHash: Promise<string | undefined>;
  /** Sanitised tail the model sees. */
  output: string;
  truncation: TruncationResult;
  /** True when the output shown does not start at the first byte. */
  outputCut: boolean;
  /** The prompt line when the command was stopped because it waited for input. */
  prompt?: string;
  /** The command failed and its output says it wanted input or a terminal. */
  wantedInput: boolean;
  /**
   * Marker-based hunt for processes that escaped the process group, when one ran. It does not
   * run when `cleanup.escapesChecked` says the environment already did it and confirmed.
   */
  escapes?: EscapeHuntResult;
  cleanup: ExecCleanup;
  runId: string;
  /** How the command was sandboxed and what the sandbox refused; absent when it was not. */
  sandbox?: SandboxReport;
}
