/**
 * Conformance section for the bash tool and its pipeline: runs unchanged on any `Operations`
 * (local, SSH, Docker), with only POSIX sh tools inside the environment (busybox is enough).
 */

import { outputCutMarker } from "@tackle/operations";
import { afterAll, describe, expect, it } from "vitest";
import { formatBytes } from "../defaults.js";
import { createJobRegistry, type JobRegistry } from "../shell/jobs.js";
import type { ShellToolDetails } from "../shell/tool.js";
import { createBashToolDefinition } from "../tools/bash.js";
import { createJobsToolDefinition } from "../tools/jobs.js";
import { type ToolsConformanceEnv, textOf } from "./env.js";

/** The bash tool's behaviour list. */
export function defineBashConformance(getEnv: () => ToolsConformanceEnv): void {
  let registry: JobRegistry | undefined;
  const jobs = (): JobRegistry => {
    const env = getEnv();
    registry ??= createJobRegistry({
      operations: env.ctx.operations,
      sessionId: env.ctx.session.id,
      stateDir: env.path("bash-jobs-state"),
      killGraceMs: 500,
    });
    return registry;
  };
  const tool = () =>
    createBashToolDefinition({ killGraceMs: 500, promptSilenceMs: 800, pollIntervalMs: 100, jobs: jobs() });

  describe("bash", () => {
    afterAll(async () => {
      await registry?.dispose();
    });

    it("returns output and exit code 0; a failing exit code is an error with stderr", async () => {
      const env = getEnv();
      const ok = await env.run(tool(), { command: "echo hello; echo world" });
      expect(ok.isError).toBe(false);
      expect(textOf(ok)).toContain("hello\nworld");
      expect(textOf(ok)).toContain("Exit code 0");
      const failed = await env.run(tool(), { command: "echo ALL PASSED; echo broken >&2; exit 3" });
      expect(failed.isError).toBe(true);
      expect(textOf(failed)).toContain("broken");
      expect(textOf(failed)).toContain("exit code 3");
    });

    it("runs in the given cwd inside the workspace", async () => {
      const env = getEnv();
      const dir = await env.freshDir("bash-cwd");
      expect(textOf(await env.run(tool(), { command: "pwd", cwd: dir }))).toContain(dir);
    });

    it("stops a command at its timeout, with its children, and says it timed out", async () => {
      const env = getEnv();
      const dir = await env.freshDir("bash-timeout");
      const outcome = await env.run(tool(), {
        command: "sleep 30 & echo $! > child.pid; sleep 30",
        cwd: dir,
        timeout: 1,
      });
      expect(outcome.isError).toBe(true);
      expect((outcome.details as ShellToolDetails).run?.status).toBe("timed-out");
      expect(textOf(outcome)).toContain("timed out after 1 s");
      // Gone, or a zombie waiting to be reaped by init (it holds no resources).
      const check = await env.run(tool(), {
        command:
          'p=$(cat child.pid); s=$(sed "s/.*) //" /proc/$p/stat 2>/dev/null | cut -c1); if [ -z "$s" ] || [ "$s" = Z ]; then echo "gone $p"; else echo "alive $s"; fi',
        cwd: dir,
      });
      // "gone" with a pid: without one (no pid file) there would be nothing checked.
      expect(textOf(check)).toMatch(/gone \d+/);
    });

    it("leaves nothing running: a child that left the process group with setsid is ended", async () => {
      const env = getEnv();
      const dir = await env.freshDir("bash-escape");
      const outcome = await env.run(tool(), {
        command:
          "command -v setsid >/dev/null || { echo no-setsid; exit 0; }; (setsid sleep 30 >/dev/null 2>&1 & echo $! > escaped.pid); echo started",
        cwd: dir,
      });
      expect(outcome.isError).toBe(false);
      if (textOf(outcome).includes("no-setsid")) return; // nothing to escape with in this environment
      const check = await env.run(tool(), {
        command:
          'p=$(cat escaped.pid); s=$(sed "s/.*) //" /proc/$p/stat 2>/dev/null | cut -c1); if [ -z "$s" ] || [ "$s" = Z ]; then echo "gone $p"; else echo "alive $s"; fi',
        cwd: dir,
      });
      expect(textOf(check)).toMatch(/gone \d+/);
    });

    it("decodes UTF-8 split across writes and strips escapes and secrets", async () => {
      const env = getEnv();
      const outcome = await env.run(tool(), {
        command:
          "printf '\\342\\202'; sleep 0.2; printf '\\254 \\033[31mred\\033[0m AKIAIOSFODNN7EXAMPLE\\n'",
      });
      const text = textOf(outcome);
      expect(text).toContain("€ red [REDACTED:aws-access-key]");
      expect(text).not.toContain("\u001b");
    });

    it("keeps the whole output in an artifact the model can page, and shows the tail", async () => {
      const env = getEnv();
      const outcome = await env.run(tool(), {
        command: "i=0; while [ $i -lt 3000 ]; do i=$((i+1)); echo line-$i; done",
      });
      const text = textOf(outcome);
      expect(text).toContain("line-3000");
      expect(text).toMatch(/\[Output cut: showing the last 2000 lines/);
      const artifact = (outcome.details as ShellToolDetails).run?.artifact.path as string;
      const content = new TextDecoder().decode(await env.ctx.operations.readFile(artifact));
      expect(content.startsWith("line-1\nline-2\n")).toBe(true);
      expect((await env.ctx.workspace.resolve(artifact, "read")).insideWorkspace).toBe(true);
    });

    it("keeps the head and the tail of output past the budget, says so, and lets the exit code decide", async () => {
      const env = getEnv();
      const limit = 64 * 1024;
      const limited = createBashToolDefinition({ maxOutputBytes: limit, jobs: jobs() });
      const outcome = await env.run(limited, { command: "seq 1 30000; exit 3", timeout: 60 });
      expect(outcome.isError).toBe(true);
      expect(outcome.errorCode).toBe("execution_failed");
      const run = (outcome.details as ShellToolDetails).run;
      expect(run?.status).toBe("failed");
      const output = numberLines(30_000);
      const dropped = output.length - limit;
      expect(run?.budgetCut).toEqual({ headBytes: limit / 2, droppedBytes: dropped, tailBytes: limit / 2 });
      const text = textOf(outcome);
      expect(text).toContain("30000");
      expect(text).toContain(
        `The output went past its 64 KB budget: ${run?.artifact.path} keeps its first 32 KB and its last 32 KB; the ${formatBytes(dropped)} between them were dropped`,
      );
      expect(text).toContain("exit code 3");
      const artifact = new TextDecoder().decode(
        await env.ctx.operations.readFile(run?.artifact.path as string),
      );
      expect(artifact).toBe(
        output.slice(0, limit / 2) +
          outputCutMarker(limit, dropped) +
          output.slice(output.length - limit / 2),
      );
    });

    it("keeps the head and the tail of a background job's log past the budget", async () => {
      const env = getEnv();
      const limit = 64 * 1024;
      const small = createJobRegistry({
        operations: env.ctx.operations,
        sessionId: env.ctx.session.id,
        stateDir: env.path("bash-jobs-limit"),
        killGraceMs: 500,
        maxOutputBytes: limit,
      });
      try {
        const job = await small.start({ shell: "bash", command: "seq 1 30000", cwd: env.root });
        const ended = await small.wait(job.id);
        expect(ended?.status).toBe("completed");
        const output = numberLines(30_000);
        const log = new TextDecoder().decode(await env.ctx.operations.readFile(job.logPath));
        expect(log).toBe(
          output.slice(0, limit / 2) +
            outputCutMarker(limit, output.length - limit) +
            output.slice(output.length - limit / 2),
        );
      } finally {
        await small.dispose();
      }
    });

    it("stops a command waiting at a prompt and says to retry non-interactively", async () => {
      const env = getEnv();
      const outcome = await env.run(tool(), { command: "printf 'Continue? [y/N] '; sleep 30" });
      expect(outcome.isError).toBe(true);
      expect(textOf(outcome)).toContain("waiting for interactive input");
      expect(textOf(outcome)).toMatch(/non-interactively/);
    });

    it("refuses a policy hit when there is no one to ask", async () => {
      const env = getEnv();
      const outcome = await env.run(tool(), { command: "rm -rf /" });
      expect(outcome.isError).toBe(true);
      expect(textOf(outcome)).toContain("recursive-delete");
    });

    it("runs background jobs: id at once, readiness, tail, kill", async () => {
      const env = getEnv();
      const started = await env.run(tool(), {
        command: "echo booting; echo ready; exec sleep 30",
        background: true,
        readyPattern: "ready",
      });
      expect(started.isError).toBe(false);
      const id = (started.details as ShellToolDetails).job?.id as string;
      expect(textOf(started)).toContain("It is ready.");
      const jobsTool = createJobsToolDefinition({ jobs: jobs() });
      expect(textOf(await env.run(jobsTool, { action: "tail", id, offset: 0 }))).toContain("booting\nready");
      expect(textOf(await env.run(jobsTool, { action: "kill", id }))).toContain("killed");
      expect(textOf(await env.run(jobsTool, { action: "list" }))).toContain(`${id} killed`);
    });
  });
}

/** `seq 1 count` as the command prints it. */
function numberLines(count: number): string {
  return Array.from({ length: count }, (_, i) => `${i + 1}\n`).join("");
}
