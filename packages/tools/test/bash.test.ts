import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createToolContext } from "../src/context/create-tool-context.js";
import type { ShellToolDetails } from "../src/shell/tool.js";
import { createBashToolDefinition } from "../src/tools/bash.js";
import {
  alive,
  createShellTestEnv,
  endPid,
  readPidFile,
  type ShellTestEnv,
  textOf,
} from "./shell-helpers.js";

let env: ShellTestEnv;
const pids: number[] = [];
const bash = createBashToolDefinition({ killGraceMs: 500, promptSilenceMs: 600, pollIntervalMs: 100 });

async function pidFrom(file: string): Promise<number> {
  const pid = Number.parseInt(await readFile(join(env.workspace, file), "utf8"), 10);
  pids.push(pid);
  return pid;
}

beforeAll(async () => {
  env = await createShellTestEnv();
});
afterAll(async () => {
  for (const pid of pids) endPid(pid);
  await env.dispose();
});

describe("bash tool", () => {
  it("returns output, exit code 0 and the duration", async () => {
    const outcome = await env.run(bash, { command: "echo hello; echo world" });
    expect(outcome.isError).toBe(false);
    const text = textOf(outcome);
    expect(text).toContain("hello\nworld");
    expect(text).toMatch(/Exit code 0 \(completed in \d+\.\d s\)/);
    const details = outcome.details as ShellToolDetails;
    expect(details.run?.status).toBe("completed");
    expect(details.run?.exitCode).toBe(0);
    // A small output's size and sha256 are recorded before the call returns.
    const path = details.run?.artifact.path as string;
    const recorded = env.ctx.artifacts.list().find((a) => a.path === path);
    expect(recorded?.size).toBe(12);
    expect(recorded?.sha256).toBe(createHash("sha256").update("hello\nworld\n").digest("hex"));
  });

  it("reports a failing exit code with stderr, as an error", async () => {
    const outcome = await env.run(bash, { command: "echo out; echo oops >&2; exit 3" });
    expect(outcome.isError).toBe(true);
    const text = textOf(outcome);
    expect(text).toContain("oops");
    expect(text).toContain("out");
    expect(text).toContain("exit code 3");
    expect((outcome.details as ShellToolDetails).run?.status).toBe("failed");
  });

  it("keeps stdout and stderr in arrival order", async () => {
    const outcome = await env.run(bash, { command: "echo 1; echo 2 >&2; echo 3; echo 4 >&2" });
    expect(textOf(outcome)).toContain("1\n2\n3\n4");
  });

  it("runs in cwd inside the workspace and refuses a cwd outside it", async () => {
    await env.ctx.operations.mkdir(join(env.workspace, "sub"));
    const inside = await env.run(bash, { command: "pwd", cwd: "sub" });
    expect(textOf(inside)).toContain(join(env.workspace, "sub"));
    const outside = await env.run(bash, { command: "pwd", cwd: "/etc" });
    expect(outside.isError).toBe(true);
    expect(textOf(outside)).toContain("/etc");
  });

  it("names a working directory that does not exist, given or the session's", async () => {
    const given = await env.run(bash, { command: "echo hi", cwd: "no-such-dir" });
    expect(given).toMatchObject({ isError: true, errorCode: "not_found" });
    expect(textOf(given)).toContain(
      `Working directory not found: no-such-dir (${join(env.workspace, "no-such-dir")})`,
    );
    const gone = join(env.workspace, "gone");
    await env.ctx.operations.mkdir(gone);
    const ctx = createToolContext({ cwd: gone, operations: env.ctx.operations });
    await env.ctx.operations.remove(gone, { recursive: true });
    const session = await env.run(bash, { command: "echo hi" }, { ctx });
    expect(session).toMatchObject({ isError: true, errorCode: "not_found" });
    expect(textOf(session)).toContain(`The session's working directory ${gone} does not exist`);
    expect(textOf(session)).not.toContain("Not found: .");
  });

  it("times out as a timeout (not an exit code) and ends grandchildren", async () => {
    const outcome = await env.run(bash, {
      command: "bash -c 'sleep 100 & echo $! > gc.pid; wait' & sleep 100",
      timeout: 1,
    });
    expect(outcome.isError).toBe(true);
    const details = outcome.details as ShellToolDetails;
    expect(details.run?.status).toBe("timed-out");
    expect(textOf(outcome)).toContain("timed out after 1 s");
    expect(textOf(outcome)).not.toContain("exit code 1");
    expect(alive(await pidFrom("gc.pid"))).toBe(false);
  });

  it("kills a child that ignores SIGTERM after the grace period", async () => {
    const controller = new AbortController();
    const running = env.run(
      bash,
      { command: "trap '' TERM; sleep 100 & echo $! > stubborn.pid; wait" },
      { signal: controller.signal },
    );
    // Stopped only once the pid file shows the trap is set: a stop that came before it would
    // end the shell with SIGTERM alone and never test the SIGKILL.
    const pid = await readPidFile(join(env.workspace, "stubborn.pid"));
    pids.push(pid);
    controller.abort();
    const details = (await running).details as ShellToolDetails;
    expect(details.run?.status).toBe("cancelled");
    expect(details.run?.cleanup.killSent).toBe(true);
    expect(alive(pid)).toBe(false);
  });

  it("returns at once when `sleep 100 &` holds the output, and ends it", async () => {
    for (const fastPath of [true, false]) {
      const tool = createBashToolDefinition({ fastPath, killGraceMs: 500 });
      const started = Date.now();
      const outcome = await env.run(tool, { command: "sleep 100 & echo $! > bg.pid; echo started" });
      expect(Date.now() - started).toBeLessThan(20_000);
      expect(outcome.isError).toBe(false);
      expect(textOf(outcome)).toContain("started");
      expect(alive(await pidFrom("bg.pid"))).toBe(false);
    }
  });

  it("finds and ends processes that escaped with setsid and nohup", async () => {
    const outcome = await env.run(bash, {
      // Started from subshells that exit at once: the sleeps are re-parented away from the
      // command's tree, and setsid also leaves its process group. Only the marker finds them.
      command:
        "(setsid sleep 101 >/dev/null 2>&1 & echo $! > setsid.pid); (nohup sleep 102 >/dev/null 2>&1 & echo $! > nohup.pid); sleep 100",
      timeout: 1,
    });
    const details = outcome.details as ShellToolDetails;
    expect(details.run?.status).toBe("timed-out");
    const setsidPid = await pidFrom("setsid.pid");
    const nohupPid = await pidFrom("nohup.pid");
    // Whoever got them first (the adapter's own cleanup or the pipeline's marker hunt), none is left.
    expect(details.run?.escapes?.remaining ?? []).toEqual([]);
    expect(alive(setsidPid)).toBe(false);
    expect(alive(nohupPid)).toBe(false);
  });

  it("hunts escaped processes itself unless the environment confirmed it did (one exec per call)", async () => {
    const real = env.ctx.operations;
    const { createToolContext } = await import("../src/context/create-tool-context.js");
    /** A context whose exec calls are counted; `groupOnly` hides the adapter's escape check (like SSH). */
    function counted(groupOnly: boolean) {
      const shells: string[] = [];
      const ops = Object.create(real) as typeof real;
      ops.exec = async (command, options) => {
        shells.push(options.shell);
        const result = await real.exec(command, options);
        if (!groupOnly) return result;
        const { escapesChecked: _checked, ...cleanup } = result.cleanup;
        return { ...result, cleanup };
      };
      const ctx = createToolContext({ cwd: env.workspace, operations: ops, artifacts: env.ctx.artifacts });
      return { ctx, shells };
    }
    const command = "(setsid sleep 103 >/dev/null 2>&1 & echo $! > hunt.pid); echo done";

    const local = counted(false);
    const direct = await env.run(bash, { command }, { ctx: local.ctx });
    expect(direct.isError).toBe(false);
    expect(alive(await pidFrom("hunt.pid"))).toBe(false);
    if (process.platform === "linux") {
      expect((direct.details as ShellToolDetails).run?.cleanup.escapesChecked).toBe(true);
      expect(local.shells).toEqual(["bash"]);
      expect(textOf(direct)).toContain("[Ended background processes the command left running.");
    }

    const groupOnly = counted(true);
    const hunted = await env.run(bash, { command: "echo quiet" }, { ctx: groupOnly.ctx });
    expect(hunted.isError).toBe(false);
    expect(groupOnly.shells).toEqual(["bash", "sh"]);
    expect((hunted.details as ShellToolDetails).run?.escapes?.supported).toBe(process.platform !== "win32");
  });

  it("decodes a UTF-8 character split across chunks", async () => {
    for (const fastPath of [true, false]) {
      const tool = createBashToolDefinition({ fastPath });
      const outcome = await env.run(tool, {
        command:
          "printf '\\xe2\\x82'; sleep 0.3; printf '\\xac and \\xf0\\x9f'; sleep 0.3; printf '\\x98\\x80\\n'",
      });
      expect(textOf(outcome)).toContain("€ and 😀");
      expect(textOf(outcome)).not.toContain("\ufffd");
    }
  });

  it("shows the tail with a notice and keeps every line in the artifact", async () => {
    const outcome = await env.run(bash, { command: "seq 1 300000" });
    const text = textOf(outcome);
    expect(text).toContain("\n300000\n");
    expect(text).not.toContain("\n1\n2\n");
    expect(text).toMatch(/\[Output cut: showing the last \d+ lines/);
    const details = outcome.details as ShellToolDetails;
    const artifact = details.run?.artifact.path as string;
    expect(text).toContain(`Full output: ${artifact} (page it with the read tool: offset=1`);
    const content = await readFile(artifact, "utf8");
    expect(content.startsWith("1\n2\n3\n")).toBe(true);
    expect(content.endsWith("299999\n300000\n")).toBe(true);
    // The artifact directory is a workspace root, so read can open it.
    expect((await env.ctx.workspace.resolve(artifact, "read")).insideWorkspace).toBe(true);
  });

  it("stops a command waiting at an interactive prompt and says how to retry", async () => {
    const started = Date.now();
    const outcome = await env.run(bash, { command: "printf 'Overwrite config? [y/N] '; sleep 100" });
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(outcome.isError).toBe(true);
    const text = textOf(outcome);
    expect(text).toContain("waiting for interactive input");
    expect(text).toContain("Overwrite config? [y/N]");
    expect(text).toMatch(/non-interactively/);
  });

  it("hints when a command failed because stdin is closed", async () => {
    const outcome = await env.run(bash, { command: "printf 'Password: '; read -r pw || exit 1" });
    expect(outcome.isError).toBe(true);
    // The parse names the reader: the hint says how to give it its answer.
    expect(textOf(outcome)).toContain("waited for input that cannot come");
    expect(textOf(outcome)).toContain("`read -r pw <<< 'y'`");
    const py = await env.run(bash, { command: "python3 -c 'input(\"Name: \")'" });
    expect(textOf(py)).toContain("EOF when reading a line");
    expect(textOf(py)).toMatch(/non-interactively/);
  });

  it("gives the command no stdin: a reader gets end-of-file at once", async () => {
    const outcome = await env.run(bash, { command: "cat; read -r line || echo eof-after-read" });
    expect(outcome.isError).toBe(false);
    expect(textOf(outcome)).toContain("eof-after-read");
  });

  it("reports status unknown with the pid when the environment cannot confirm cleanup", async () => {
    // An environment (e.g. an SSH session that ignores signals) whose exec could not confirm
    // the tree ended: the real local exec runs the command, its report says unconfirmed.
    const real = env.ctx.operations;
    const unsure = Object.create(real) as typeof real;
    unsure.exec = async (command, options) => {
      const result = await real.exec(command, options);
      if (options.shell === "sh") return result; // the escape hunt itself
      return { ...result, status: "unknown", cleanup: { ...result.cleanup, confirmed: false, pid: 4242 } };
    };
    const { createToolContext } = await import("../src/context/create-tool-context.js");
    const ctx = createToolContext({ cwd: env.workspace, operations: unsure, artifacts: env.ctx.artifacts });
    const outcome = await env.run(bash, { command: "echo hi" }, { ctx });
    expect(outcome.isError).toBe(true);
    expect(textOf(outcome)).toContain("status unknown");
    expect(textOf(outcome)).toContain("pid 4242");
    expect((outcome.details as ShellToolDetails).run?.status).toBe("unknown");
  });

  it("streams live updates of the output while the command runs", async () => {
    const { invokeTool } = await import("@tackle/agent-core");
    const { wrapToolDefinition } = await import("@tackle/extensions");
    const updates: string[] = [];
    const tool = wrapToolDefinition(createBashToolDefinition({ pollIntervalMs: 100 }), () => env.ctx);
    await invokeTool(
      tool,
      { command: "echo first; sleep 1; echo second" },
      {
        onUpdate: (partial) =>
          updates.push(partial.content.map((c) => (c.type === "text" ? c.text : "")).join("")),
      },
    );
    expect(updates.some((u) => u.includes("first") && !u.includes("second"))).toBe(true);
  });

  it("clamps a timeout above the maximum and says so", async () => {
    const tool = createBashToolDefinition({ maxTimeoutSeconds: 5 });
    const outcome = await env.run(tool, { command: "echo ok", timeout: 9999 });
    expect(textOf(outcome)).toContain("timeout 9999 s was above the maximum; 5 s was used");
    expect((await env.run(tool, { command: "echo ok", timeout: -1 })).isError).toBe(true);
  });

  it("cancels on abort", async () => {
    const controller = new AbortController();
    const running = env.run(
      bash,
      { command: "sleep 100 & echo $! > abort.pid; wait" },
      { signal: controller.signal },
    );
    // Abort once the child is known to run, not after a guess at how long starting takes.
    const pid = await readPidFile(join(env.workspace, "abort.pid"));
    pids.push(pid);
    controller.abort();
    const outcome = await running;
    expect(outcome.isError).toBe(true);
    expect(outcome.errorCode).toBe("aborted");
    expect(alive(pid)).toBe(false);
  });

  it("filters secret-named variables and sets non-interactive ones", async () => {
    process.env.TACKLE_TEST_API_TOKEN = "tok-should-not-leak";
    try {
      const outcome = await env.run(bash, {
        command:
          'echo "token=[$(printenv TACKLE_TEST_API_TOKEN)] prompt=$GIT_TERMINAL_PROMPT pager=$PAGER"; printenv TACKLE_RUN_ID',
      });
      expect(textOf(outcome)).toContain("token=[] prompt=0 pager=cat");
      expect(textOf(outcome)).toMatch(/\n[0-9a-f]{32}\n/);
      const keep = createBashToolDefinition({ env: { filter: false } });
      expect(textOf(await env.run(keep, { command: 'echo "[$TACKLE_TEST_API_TOKEN]"' }))).toContain(
        "[tok-should-not-leak]",
      );
    } finally {
      delete process.env.TACKLE_TEST_API_TOKEN;
    }
  });

  it("holds file mutations while a foreground command runs", async () => {
    const exists = (name: string) =>
      env.ctx.operations.stat(join(env.workspace, name)).then(
        () => true,
        () => false,
      );
    const run = env.run(bash, { command: "touch running; sleep 0.5; touch finished" });
    await vi.waitFor(async () => expect(await exists("running")).toBe(true), {
      timeout: 30_000,
      interval: 20,
    });
    let finishedBeforeEdit = false;
    await env.ctx.mutations.withFileMutation(join(env.workspace, "x.txt"), async () => {
      finishedBeforeEdit = await exists("finished");
    });
    await run;
    expect(finishedBeforeEdit).toBe(true);
  });

  it("refuses policy hits without a UI and runs them when confirmed", async () => {
    const denied = await env.run(bash, { command: "cd /etc && pwd" });
    expect(denied.isError).toBe(true);
    expect(textOf(denied)).toContain("cwd-escape");
    expect(textOf(denied)).toContain("cd /etc");
    const asked: string[] = [];
    const withUi = await env.ctx.operations.realpath(env.workspace);
    const { createToolContext } = await import("../src/context/create-tool-context.js");
    const ctx = createToolContext({
      cwd: withUi,
      operations: env.ctx.operations,
      artifacts: env.ctx.artifacts,
      ui: {
        async confirm(title) {
          asked.push(title);
          return true;
        },
        notify() {},
      },
    });
    const allowed = await env.run(bash, { command: "cd /etc && pwd" }, { ctx });
    expect(allowed.isError).toBe(false);
    expect(textOf(allowed)).toContain("/etc");
    expect(asked).toHaveLength(1);
    const vim = await env.run(bash, { command: "vim notes.txt" }, { ctx });
    expect(textOf(vim)).toContain("interactive-program");
  });
});
