import {
  AUDIT_COMMAND_CHARS,
  type AuditEnd,
  type AuditOutput,
  type AuditRecorder,
  type AuditSpawn,
} from "@tackle/agent-core";
import type { Operations, SandboxReport } from "@tackle/operations";
import type { JobRecord, JobStatus } from "../shell/job-record.js";
import type { PolicyHit } from "../shell/policy-contract.js";
import type { ShellRunOutcome } from "../shell/run-outcome.js";
import { REDACTED_PLACEHOLDER } from "../text/untrusted.js";

/** Records the shell policy's verdict: the rules hit, and for `ask` who answered and what. */
export function recordPolicyDecision(
  audit: AuditRecorder,
  verdict: { decision: "allow" | "deny" | "ask"; hits: PolicyHit[] },
  answer?: { approved: boolean; ui: boolean },
): void {
  if (!audit.enabled) return;
  const rules = verdict.hits.map((hit) => hit.rule);
  const reason = verdict.hits.map((hit) => `${hit.rule}: ${hit.reason} (matched: ${hit.text})`).join("; ");
  audit.record({
    kind: "decision",
    source: "shell",
    gate: "shell-policy",
    verdict: verdict.decision,
    rules,
    ...(reason ? { reason } : {}),
    ...(verdict.decision === "deny" ? { code: "policy_denied" } : {}),
    ...(answer
      ? { approved: answer.approved, approvedBy: answer.ui ? ("user" as const) : ("nobody" as const) }
      : {}),
    ...(answer && !answer.approved ? { code: "policy_denied" } : {}),
  });
}

/** Output timing as the pipeline saw it. */
export interface OutputTimeline {
  firstAt?: number;
  lastAt?: number;
  chunks: number;
}

/** Placeholders per kind of secret in `text`. */
function placeholderCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const match of text.matchAll(REDACTED_PLACEHOLDER)) {
    const kind = match[0].slice("[REDACTED:".length, -1);
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  return counts;
}

/**
 * Secrets redacted from `raw` to get `clean`, counted by kind: placeholders in the clean text
 * that were not already in the raw text. Never the secret itself.
 */
export function redactionCounts(raw: string, clean: string): Record<string, number> {
  const before = placeholderCounts(raw);
  const out: Record<string, number> = {};
  for (const [kind, count] of placeholderCounts(clean)) {
    const added = count - (before.get(kind) ?? 0);
    if (added > 0) out[kind] = added;
  }
  return out;
}

/** Converts a timeline to the output event's timing fields. */
export function timelineFields(
  timeline: OutputTimeline,
  polled: { resolutionMs: number } | undefined,
): Pick<AuditOutput, "firstOutputAt" | "lastOutputAt" | "timing" | "resolutionMs" | "chunks"> {
  return {
    ...(timeline.firstAt !== undefined ? { firstOutputAt: new Date(timeline.firstAt).toISOString() } : {}),
    ...(timeline.lastAt !== undefined ? { lastOutputAt: new Date(timeline.lastAt).toISOString() } : {}),
    ...(polled
      ? { timing: "polled" as const, resolutionMs: polled.resolutionMs }
      : { timing: "exact" as const, chunks: timeline.chunks }),
  };
}

/** How to look for, and end, processes a call could not confirm ended. */
export function howToCheck(pid: number | undefined, runId: string, remaining: number[] = []): string {
  const pids = remaining.length > 0 ? remaining.join(" ") : pid !== undefined ? String(pid) : "";
  const byPid = pids
    ? `ps -o pid,pgid,stat,etime,args -p ${pids.replaceAll(" ", ",")}; end them with kill -KILL ${pids}`
    : "";
  const byMarker = `processes carrying the run marker: grep -l 'TACKLE_RUN_ID=${runId}' /proc/[0-9]*/environ`;
  return [byPid, byMarker].filter(Boolean).join(". ");
}

/**
 * Records the process a shell call starts (foreground or background): never environment values.
 * Called from `ExecOptions.onSpawn` with the pid as soon as the environment reports it; without
 * `pid` when the command never started (or its environment reports no id).
 */
export function recordSpawn(
  audit: AuditRecorder,
  spawn: {
    shell: string;
    cwd: string;
    /** The command as the model sent it (without the environment prelude Tackle adds). */
    command: string;
    timeoutMs?: number;
    background: boolean;
    env: Record<string, string | undefined>;
    removedPattern: RegExp | false | undefined;
    runId: string;
    outputPath: string;
    jobId?: string;
    /** Process group id of the command in its environment (what a stop signals). */
    pid?: number;
    /** How the environment sandboxed it (absent: not sandboxed). */
    sandbox?: SandboxReport;
  },
): void {
  if (!audit.enabled) return;
  audit.record({
    kind: "spawn",
    source: "shell",
    shell: spawn.shell,
    cwd: spawn.cwd,
    ...commandFields(spawn.command),
    ...(spawn.timeoutMs !== undefined ? { timeoutMs: spawn.timeoutMs } : {}),
    background: spawn.background,
    env: {
      set: Object.keys(spawn.env).sort(),
      ...(spawn.removedPattern !== false
        ? { removedPattern: String(spawn.removedPattern ?? "default") }
        : {}),
    },
    runId: spawn.runId,
    outputPath: spawn.outputPath,
    ...(spawn.jobId !== undefined ? { jobId: spawn.jobId } : {}),
    ...(spawn.pid !== undefined ? { pid: spawn.pid } : {}),
    sandbox: spawn.sandbox ? sandboxAudit(spawn.sandbox) : { mechanism: "none" },
  });
}

/** The spawn event's command, cut at {@link AUDIT_COMMAND_CHARS} with its whole length. */
function commandFields(command: string): { command: string; commandChars?: number } {
  return command.length > AUDIT_COMMAND_CHARS
    ? { command: `${command.slice(0, AUDIT_COMMAND_CHARS)}… (cut)`, commandChars: command.length }
    : { command };
}

/** The spawn event's account of the sandbox: mechanism, network, writable paths, host pid. */
function sandboxAudit(report: SandboxReport): NonNullable<AuditSpawn["sandbox"]> {
  return {
    mechanism: report.mechanism,
    network: report.network,
    ...(report.allow ? { allow: report.allow } : {}),
    writable: report.writable,
    seccomp: report.seccomp,
    ...(report.hostPid !== undefined ? { hostPid: report.hostPid } : {}),
  };
}

/** What {@link recordRunEvidence} needs besides the run's outcome. */
export interface RunEvidence {
  timeline: OutputTimeline;
  /** Set on the fast path: the output was seen by polling the file every `resolutionMs`. */
  polled: { resolutionMs: number } | undefined;
  stdoutBytes: number;
  stderrBytes: number;
  /** The captured tail before and after sanitising (for redaction counts). */
  rawTail: string;
  cleanTail: string;
  timedOut: boolean;
}

/** Records a foreground run's output timeline and its process end. */
export function recordRunEvidence(
  audit: AuditRecorder,
  outcome: ShellRunOutcome,
  evidence: RunEvidence,
): void {
  if (!audit.enabled) return;
  const { truncation, artifact } = outcome;
  audit.record({
    kind: "output",
    source: "shell",
    ...timelineFields(evidence.timeline, evidence.polled),
    stdoutBytes: evidence.stdoutBytes,
    stderrBytes: evidence.stderrBytes,
    streamsMerged: evidence.polled !== undefined,
    totalBytes: outcome.totalBytes,
    shown: {
      lines: truncation.outputLines,
      bytes: truncation.outputBytes,
      cut: outcome.outputCut,
      ...(truncation.truncatedBy ? { cutBy: truncation.truncatedBy } : {}),
      totalLines: truncation.totalLines,
    },
    artifact: { id: artifact.id, path: artifact.path, size: artifact.size },
    redactions: redactionCounts(evidence.rawTail, evidence.cleanTail),
  });
  // Large outputs are hashed after the call returns: the hash joins the record when it is known.
  void outcome.artifactHash.then((sha256) => {
    if (sha256)
      audit.record({
        kind: "output",
        source: "shell",
        artifact: { id: artifact.id, path: artifact.path, size: artifact.size, sha256 },
      });
  });
  const remaining = outcome.escapes?.remaining ?? [];
  const { cleanup } = outcome;
  audit.record({
    kind: "end",
    source: "shell",
    scope: "process",
    status: outcome.status,
    ...(outcome.exitCode !== undefined ? { exitCode: outcome.exitCode } : {}),
    ...(outcome.signal !== undefined ? { signal: outcome.signal } : {}),
    durationMs: outcome.elapsedMs,
    cleanup: {
      timedOut: evidence.timedOut,
      termSent: cleanup.termSent,
      killSent: cleanup.killSent,
      confirmed: cleanup.confirmed && remaining.length === 0,
      ...(cleanup.escapesChecked !== undefined ? { escapesChecked: cleanup.escapesChecked } : {}),
      ...(remaining.length > 0 ? { remainingPids: remaining } : {}),
      ...(cleanup.pid !== undefined ? { pid: cleanup.pid } : {}),
      ...(cleanup.note !== undefined ? { note: cleanup.note } : {}),
    },
    ...(outcome.sandbox?.blocked
      ? { sandboxBlocked: outcome.sandbox.blocked.map((b) => `${b.kind} ${b.target}`) }
      : {}),
    ...(outcome.status === "unknown"
      ? { howToCheck: howToCheck(outcome.sandbox?.hostPid ?? cleanup.pid, outcome.runId, remaining) }
      : {}),
  });
}

/**
 * Records how a background job ended, in the record of the call that started it: its output size
 * (the log) and the process end. Returns the record unchanged; never throws.
 */
export async function recordJobEnd(
  audit: AuditRecorder,
  ops: Pick<Operations, "stat">,
  job: JobRecord,
): Promise<JobRecord> {
  if (!audit.enabled) return job;
  const size = await ops.stat(job.logPath).then(
    (stat) => stat.size,
    () => undefined,
  );
  audit.record({
    kind: "output",
    source: "jobs",
    ...(size !== undefined ? { totalBytes: size } : {}),
    streamsMerged: true,
    artifact: { id: job.id, path: job.logPath, size: size ?? 0 },
  });
  const status = JOB_END_STATUS[job.status];
  audit.record({
    kind: "end",
    source: "jobs",
    scope: "process",
    status,
    ...(job.exitCode !== undefined ? { exitCode: job.exitCode } : {}),
    ...(job.signal !== undefined ? { signal: job.signal } : {}),
    durationMs: (job.endedAt ?? Date.now()) - job.startedAt,
    ...jobCleanup(job),
    ...(status === "unknown"
      ? {
          howToCheck: `${howToCheck(undefined, job.runId, job.remainingPids)}. Job record: jobs tool {"action":"status","id":"${job.id}"}`,
        }
      : {}),
  });
  return job;
}

/**
 * The cleanup piece of a job's end: the kill steps its environment reported and whether the tree
 * was confirmed gone, as a foreground stop records them; only the pids left for a job whose
 * environment could not say (an orphan ended by its marker).
 */
function jobCleanup(job: JobRecord): Pick<AuditEnd, "cleanup"> {
  const remaining = job.remainingPids ?? [];
  if (job.cleanup)
    return {
      cleanup: {
        timedOut: job.status === "timed-out",
        ...job.cleanup,
        ...(remaining.length > 0 ? { remainingPids: remaining } : {}),
      },
    };
  if (remaining.length === 0) return {};
  return {
    cleanup: {
      termSent: job.status === "killed",
      killSent: false,
      confirmed: false,
      remainingPids: remaining,
    },
  };
}

const JOB_END_STATUS: Record<JobStatus, AuditEnd["status"]> = {
  running: "unknown",
  completed: "completed",
  failed: "failed",
  killed: "cancelled",
  "timed-out": "timed-out",
  unknown: "unknown",
  orphaned: "unknown",
};
