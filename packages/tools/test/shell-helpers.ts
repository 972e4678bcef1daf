import { readFileSync } from "node:fs";
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { invokeTool, type ToolOutcome } from "@tackle/agent-core";
import {
  type AnyToolDefinition,
  type ToolSession,
  type ToolUI,
  wrapToolDefinition,
} from "@tackle/extensions";
import { createLocalOperations } from "@tackle/operations-local";
import { createArtifactStore } from "@tackle/session";
import { createToolContext } from "../src/context/create-tool-context.js";
import { createJobRegistry, type JobRegistry } from "../src/shell/jobs.js";

/** A workspace in a fresh temp dir, a local context with its own artifacts and job registry. */
export interface ShellTestEnv {
  dir: string;
  workspace: string;
  ctx: ToolSession;
  jobs: JobRegistry;
  run(
    definition: AnyToolDefinition,
    args: unknown,
    options?: { signal?: AbortSignal; ctx?: ToolSession },
  ): Promise<ToolOutcome>;
  dispose(): Promise<void>;
}

export async function createShellTestEnv(options: { ui?: ToolUI } = {}): Promise<ShellTestEnv> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), "tackle-shell-")));
  const workspace = join(dir, "ws");
  const operations = createLocalOperations();
  await operations.mkdir(workspace);
  const jobs = createJobRegistry({
    operations,
    sessionId: "test",
    stateDir: join(dir, "jobs"),
    killGraceMs: 500,
  });
  const ctx = createToolContext({
    cwd: workspace,
    operations,
    artifacts: createArtifactStore({ operations, sessionId: "test", baseDir: dir }),
    jobs,
    ...(options.ui ? { ui: options.ui } : {}),
  });
  return {
    dir,
    workspace,
    ctx,
    jobs,
    run(definition, args, runOptions = {}) {
      const useCtx = runOptions.ctx ?? ctx;
      const tool = wrapToolDefinition(definition, () => useCtx);
      return invokeTool(tool, args, runOptions.signal ? { signal: runOptions.signal } : {});
    },
    async dispose() {
      await jobs.dispose();
      await ctx.artifacts.dispose();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export function textOf(outcome: ToolOutcome): string {
  return outcome.content.map((part) => (part.type === "text" ? part.text : "")).join("\n");
}

/** True while a process with this pid exists (zombies count as gone: they hold no resources). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return !/\) Z /.test(stat);
  } catch {
    return false;
  }
}

/** Ends a test process by pid if it is still there (never by name). */
export function endPid(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // already gone
  }
}

/** Waits until `path` exists and holds a pid, then returns it (the caller ends it by pid). */
export async function readPidFile(path: string, timeoutMs = 10_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const pid = Number.parseInt(readFileSync(path, "utf8"), 10);
      if (Number.isInteger(pid) && pid > 0) return pid;
    } catch {
      // not written yet
    }
    if (Date.now() > deadline) throw new Error(`no pid in ${path}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
