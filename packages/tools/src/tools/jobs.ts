/**
 * The jobs tool: list, inspect, page and stop background jobs started with
 * `bash`/`powershell` `background: true`, including jobs of an earlier host process (orphaned).
 */

import { quoteInput, ToolError } from "@tackle/agent-core";
import { type Static, Type } from "@tackle/agent-core/typebox";
import type { ToolDefinition } from "@tackle/extensions";
import { DEFAULTS, formatBytes } from "../defaults.js";
import { formatDuration } from "../shell/format.js";
import type { JobRecord, JobRegistry } from "../shell/jobs.js";
import { getShellJobs } from "../shell/registry.js";
import { markToolOutput } from "../shell/sanitize.js";
import { checkOptions } from "../tool-options.js";

const jobsParameters = Type.Object({
  action: Type.Union(
    [Type.Literal("list"), Type.Literal("status"), Type.Literal("tail"), Type.Literal("kill")],
    {
      description: "list: all jobs; status: one job; tail: its output from offset; kill: stop it.",
    },
  ),
  id: Type.Optional(Type.String({ description: "Job id (from bash/powershell background: true or list)." })),
  offset: Type.Optional(
    Type.Integer({ minimum: 0, description: "tail: byte offset to read from (default: the end)." }),
  ),
});

/** Arguments of the jobs tool. */
export type JobsParams = Static<typeof jobsParameters>;

/** What the jobs tool reports to hosts. */
export interface JobsDetails {
  jobs?: JobRecord[];
  job?: JobRecord;
  offset?: number;
  nextOffset?: number;
  size?: number;
}

function summary(job: JobRecord): string {
  const took = formatDuration((job.endedAt ?? Date.now()) - job.startedAt);
  const code = job.exitCode !== undefined ? `, exit code ${job.exitCode}` : "";
  const pids = job.remainingPids?.length ? `, may still run: pid ${job.remainingPids.join(", ")}` : "";
  return `${job.id} ${job.status}${code}${pids} (${took}) \`${job.command.length > 80 ? `${job.command.slice(0, 77)}...` : job.command}\``;
}

/** Creates the jobs tool. `jobs` overrides the registry found in the context. */
export function createJobsToolDefinition(
  options: { jobs?: JobRegistry } = {},
): ToolDefinition<typeof jobsParameters, JobsDetails> {
  checkOptions("jobs tool", options, { jobs: "object" });
  return {
    name: "jobs",
    label: "Jobs",
    description: [
      "Manage background jobs (commands started with background: true).",
      "action=list shows every job (orphaned: its host process ended while it ran; kill still works).",
      `action=tail shows up to ${formatBytes(DEFAULTS.maxBytes)} of a job's output from offset (default: the end) and the offset to continue from.`,
      "action=status shows one job; action=kill stops it and its child processes.",
    ].join(" "),
    promptSnippet: "jobs: list, tail, stop background jobs",
    parameters: jobsParameters,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    async execute(_id, params, _signal, _onUpdate, ctx) {
      const jobs = options.jobs ?? getShellJobs(ctx);
      if (params.action === "list") {
        const all = await jobs.list();
        const text = all.length === 0 ? "No background jobs." : all.map(summary).join("\n");
        return { content: [{ type: "text", text }], details: { jobs: all } };
      }
      if (!params.id)
        throw new ToolError(
          "invalid_arguments",
          `action=${params.action} needs an id. Use action=list to see job ids.`,
        );
      const job = await jobs.get(params.id);
      if (!job)
        throw new ToolError("not_found", `No job ${quoteInput(params.id)}. Use action=list to see job ids.`);
      if (params.action === "status") {
        const tail = await jobs.tail(job.id, { maxBytes: 2048 });
        const text = [summary(job), ...(tail?.text ? [markToolOutput(tail.text, "job")] : [])].join("\n");
        return { content: [{ type: "text", text }], details: { job } };
      }
      if (params.action === "tail") {
        const tail = await jobs.tail(job.id, params.offset !== undefined ? { offset: params.offset } : {});
        if (!tail) throw new ToolError("not_found", `No output for job ${job.id}.`);
        const more = tail.nextOffset < tail.size ? ` More output: use offset=${tail.nextOffset}.` : "";
        const text = [
          tail.text.length > 0 ? markToolOutput(tail.text, "job") : "(no output in this range)",
          `[${job.id} ${job.status}: bytes ${tail.offset}-${tail.nextOffset} of ${tail.size}.${more} Full log: ${job.logPath}]`,
        ].join("\n");
        return {
          content: [{ type: "text", text }],
          details: { job, offset: tail.offset, nextOffset: tail.nextOffset, size: tail.size },
        };
      }
      const killed = await jobs.kill(job.id);
      const record = killed?.record ?? job;
      return { content: [{ type: "text", text: `Stopped: ${summary(record)}` }], details: { job: record } };
    },
  };
}
