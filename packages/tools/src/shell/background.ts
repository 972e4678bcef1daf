import type { AuditRecorder } from "@tackle/agent-core";
import { quoteInput, shortenInput, ToolError } from "@tackle/agent-core";
import type { ExtensionContext } from "@tackle/extensions";
import type { SandboxOptions } from "@tackle/operations";
import { formatDuration } from "./format.js";
import type { ToolShell } from "./pipeline.js";
import { getShellJobs } from "./registry.js";
import { markToolOutput } from "./sanitize.js";
import type { ShellToolDetails, ShellToolOptions, ShellToolParams } from "./tool-contract.js";

/**
 * Starts a command as a background job of the session (`background: true`): waits for its
 * readiness when asked (a pattern in its output or a listening port), then answers with the job
 * id, its first output and how to follow or stop it with the jobs tool.
 */
export async function startBackground(
  ctx: ExtensionContext,
  shell: ToolShell,
  params: ShellToolParams,
  cwd: string,
  timeoutSeconds: number,
  base: Omit<ShellToolDetails, "run" | "job">,
  options: ShellToolOptions,
  signal: AbortSignal | undefined,
  audit: AuditRecorder,
  sandbox: SandboxOptions | false | undefined,
) {
  let pattern: RegExp | undefined;
  if (params.readyPattern !== undefined) {
    try {
      pattern = new RegExp(params.readyPattern, "m");
      // V8 compiles on first use: a pattern too large to compile throws there, not above.
      pattern.test("");
    } catch (error) {
      throw new ToolError(
        "invalid_arguments",
        `readyPattern ${quoteInput(params.readyPattern)} is not a valid regular expression (${shortenInput((error as Error).message)}). Send readyPattern as a short JavaScript regular expression (escape ( [ * + ? with a backslash), or leave it out.`,
        { cause: error },
      );
    }
  }
  const jobs =
    options.jobs ??
    getShellJobs(ctx, {
      ...(options.env ? { env: options.env } : {}),
      ...(options.maxOutputBytes !== undefined ? { maxOutputBytes: options.maxOutputBytes } : {}),
    });
  const started = await jobs.start({
    shell,
    command: params.command,
    cwd,
    keepAlive: params.keepAlive ?? false,
    audit,
    ...(sandbox !== undefined ? { sandbox } : {}),
  });
  let ready: ShellToolDetails["ready"];
  if (pattern || params.readyPort !== undefined) {
    ready = await jobs.waitReady(started.id, {
      ...(pattern ? { pattern } : {}),
      ...(params.readyPort !== undefined ? { port: params.readyPort } : {}),
      timeoutMs: timeoutSeconds * 1000,
      ...(signal ? { signal } : {}),
    });
  }
  const job = (await jobs.get(started.id)) ?? started;
  const tail = await jobs.tail(started.id, { maxBytes: 4096 });
  const lines = [`Started background job ${job.id} (${job.status}).`];
  if (ready === "ready") lines.push("It is ready.");
  if (ready === "ended")
    lines.push(
      `It ended before it was ready (${job.status}${job.exitCode !== undefined ? `, exit code ${job.exitCode}` : ""}).`,
    );
  if (ready === "timeout")
    lines.push(`It was not ready after ${formatDuration(timeoutSeconds * 1000)}; it keeps running.`);
  if (tail && tail.text.length > 0) lines.push(markToolOutput(tail.text, "job"));
  lines.push(
    `Use the jobs tool: {"action":"tail","id":"${job.id}"} for output, {"action":"kill","id":"${job.id}"} to stop it.`,
  );
  const details: ShellToolDetails = { ...base, job, ...(ready ? { ready } : {}) };
  if (ready === "ended" && job.status !== "completed")
    throw new ToolError("execution_failed", lines.join("\n"), { details });
  return { content: [{ type: "text" as const, text: lines.join("\n") }], details };
}
