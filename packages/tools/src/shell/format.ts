import { formatBytes } from "../defaults.js";
import type { ShellRunOutcome } from "./pipeline.js";
import type { InputReader } from "./policy-contract.js";
import { NON_INTERACTIVE_HINT, readClosedStdinHint, waitedForInputHint } from "./prompt.js";
import { markToolOutput } from "./sanitize.js";

/** Seconds with one decimal, the way every shell result states a duration. */
export function formatDuration(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** The notice under the output saying what was cut and where the rest is. */
export function cutNotice(outcome: ShellRunOutcome): string | undefined {
  if (!outcome.outputCut) return undefined;
  const t = outcome.truncation;
  const by = t.truncatedBy === "lines" ? `${t.maxLines} lines` : formatBytes(t.maxBytes);
  const budget = outcome.budgetCut;
  if (budget) {
    const all = budget.headBytes + budget.droppedBytes + budget.tailBytes;
    return (
      `[Output cut: showing the last ${t.outputLines} lines (${formatBytes(t.outputBytes)}) of ` +
      `${formatBytes(all)} (limit ${by}). The output went past its ${formatBytes(outcome.outputLimitBytes)} ` +
      `budget: ${outcome.artifact.path} keeps its first ${formatBytes(budget.headBytes)} and its last ` +
      `${formatBytes(budget.tailBytes)}; the ${formatBytes(budget.droppedBytes)} between them were dropped ` +
      "(a marker line there says so). Page it with the read tool (offset=1 for its start); to keep " +
      "more, filter the output (| grep -m 50 error) or use quieter flags.]"
    );
  }
  return (
    `[Output cut: showing the last ${t.outputLines} lines (${formatBytes(t.outputBytes)}) of ` +
    `${formatBytes(outcome.totalBytes)} (limit ${by}). Full output: ${outcome.artifact.path} ` +
    "(page it with the read tool: offset=1 for its start).]"
  );
}

/** One status line: what happened, exit code, duration. */
export function statusLine(outcome: ShellRunOutcome, timeoutSeconds: number): string {
  const took = formatDuration(outcome.elapsedMs);
  switch (outcome.status) {
    case "completed":
      return `Exit code 0 (completed in ${took}).`;
    case "failed":
      return outcome.exitCode !== undefined
        ? `Command failed: exit code ${outcome.exitCode} (after ${took}).`
        : `Command failed: ended by ${outcome.signal ?? "a signal"} (after ${took}).`;
    case "timed-out":
      return `Command timed out after ${timeoutSeconds} s and was stopped. Not an exit code: it did not finish.`;
    case "cancelled":
      return outcome.prompt !== undefined
        ? `Command stopped after ${took}: it is waiting for interactive input ("${outcome.prompt.trim()}").`
        : `Command cancelled after ${took}.`;
    case "unknown": {
      const pids = [
        ...(outcome.escapes?.remaining ?? []),
        ...(outcome.cleanup.pid ? [outcome.cleanup.pid] : []),
      ];
      return `Command status unknown after ${took}: processes may still run (pid ${[...new Set(pids)].join(", ") || "unknown"}).`;
    }
  }
}

/**
 * Next step the model should take after a failure, when there is a specific one. `waited`: the
 * commands that read the closed stdin when it failed or stalled silently (they are the cause);
 * `readStdin`: those that read it in a run that failed after printing (they may be).
 */
export function nextStep(
  outcome: ShellRunOutcome,
  maxTimeoutSeconds: number,
  waited: readonly InputReader[] = [],
  readStdin: readonly InputReader[] = [],
): string | undefined {
  if (waited.length > 0) return waitedForInputHint(waited);
  if (outcome.prompt !== undefined || outcome.wantedInput) return NON_INTERACTIVE_HINT;
  if (readStdin.length > 0) return readClosedStdinHint(readStdin);
  if (outcome.status === "timed-out") {
    return `Retry with a larger timeout (max ${maxTimeoutSeconds} s), narrow the command, or run it with background: true and check it with the jobs tool.`;
  }
  return undefined;
}

/** The whole model-facing text of a foreground run. */
export function formatRun(
  outcome: ShellRunOutcome,
  source: string,
  timeoutSeconds: number,
  maxTimeoutSeconds: number,
  waited: readonly InputReader[] = [],
  readStdin: readonly InputReader[] = [],
): string {
  const parts: string[] = [];
  parts.push(outcome.output.length > 0 ? markToolOutput(outcome.output, source) : "(no output)");
  const cut = cutNotice(outcome);
  if (cut) parts.push(cut);
  const ended = outcome.escapes?.found.length ?? 0;
  const finished = outcome.status === "completed" || outcome.status === "failed";
  if (ended > 0 && outcome.status !== "unknown") {
    parts.push(
      `[Ended ${ended} background process(es) the command left running. Use background: true for servers and watchers.]`,
    );
  } else if (finished && outcome.cleanup.termSent) {
    // The environment ended them itself (its own cleanup after the exit), without a count.
    parts.push(
      "[Ended background processes the command left running. Use background: true for servers and watchers.]",
    );
  }
  parts.push(statusLine(outcome, timeoutSeconds));
  const step = nextStep(outcome, maxTimeoutSeconds, waited, readStdin);
  if (step) parts.push(step);
  return parts.join("\n");
}
