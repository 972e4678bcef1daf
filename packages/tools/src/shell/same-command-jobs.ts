/**
 * "Check the old job before re-running": before a shell command runs, background jobs of the same
 * session still running the very same command are named in the result, so the model looks at
 * the job (tail, kill) instead of starting a second copy it cannot tell apart.
 */
import type { AuditRecorder } from "@tackle/agent-core";
import type { ExtensionContext } from "@tackle/extensions";
import { formatDuration } from "./format.js";
import type { JobRecord, JobRegistry } from "./jobs.js";
import { existingShellJobs } from "./registry.js";

/**
 * Running background jobs of this session whose command is exactly `command`. Looks only when
 * the session has a job registry already (no state directory is made for this). Recorded in the
 * call's audit as a `jobs` note. Never throws: a registry that cannot be listed hides nothing
 * the call needs.
 */
export async function sameCommandJobs(
  ctx: ExtensionContext,
  command: string,
  audit: AuditRecorder,
  registry: JobRegistry | undefined = existingShellJobs(ctx),
): Promise<JobRecord[]> {
  if (!registry) return [];
  let jobs: JobRecord[];
  try {
    jobs = (await registry.list()).filter(
      (job) => job.status === "running" && job.sessionId === ctx.session.id && job.command === command,
    );
  } catch {
    return [];
  }
  if (jobs.length > 0) {
    audit.record({
      kind: "decision",
      source: "jobs",
      gate: "jobs",
      verdict: "note",
      reason: "the same command is still running as a background job of this session",
      data: { jobs: jobs.map((job) => job.id) },
    });
  }
  return jobs;
}

/** The line a result gets when the same command still runs as a job ("" when none does). */
export function jobNote(jobs: readonly JobRecord[], now = Date.now()): string {
  if (jobs.length === 0) return "";
  const list = jobs.map((job) => `${job.id} (started ${formatDuration(now - job.startedAt)} ago)`).join(", ");
  const first = jobs[0] as JobRecord;
  return `\nNote: the same command is still running as background job ${list}. Check it with the jobs tool ({"action":"tail","id":"${first.id}"}) or stop it ({"action":"kill","id":"${first.id}"}) before relying on a second copy.`;
}

/** A tool result with {@link jobNote} appended to its first text block. */
export function withJobNote<T extends { content: { type: string; text?: string }[] }>(
  result: T,
  jobs: readonly JobRecord[],
): T {
  const note = jobNote(jobs);
  if (!note) return result;
  const [first, ...rest] = result.content;
  if (first?.type !== "text") return result;
  return { ...result, content: [{ ...first, text: `${first.text}${note}` }, ...rest] };
}
