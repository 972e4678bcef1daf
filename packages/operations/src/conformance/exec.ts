import { describe, expect } from "vitest";
import { outputCutMarker, outputHeadBytes, outputTailBytes } from "../output-cut.js";
import type { ExecOptions, ExecResult, ExecSpawn, OutputChunk } from "../types.js";
import {
  type ConformanceOptions,
  concatBytes,
  expectCode,
  type SuiteContext,
  scaledIt,
  text,
} from "./context.js";

interface Captured {
  result: ExecResult;
  chunks: OutputChunk[];
  stdout: string;
  stderr: string;
}

/** Checks of `exec`: exit codes, streams, cwd, env, timeout, abort, cleanup, outputPath. */
export function describeExecChecks(get: () => SuiteContext, options: Required<ConformanceOptions>): void {
  const check = scaledIt(options);
  const run = async (command: string, options: Partial<ExecOptions> = {}): Promise<Captured> => {
    const { onChunk, ...rest } = options;
    const chunks: OutputChunk[] = [];
    const result = await get().ops.exec(command, {
      shell: get().options.shells[0] ?? "sh",
      cwd: get().root,
      // The test's own onChunk sees every chunk too; the capture keeps them either way.
      onChunk: (chunk) => {
        chunks.push(chunk);
        onChunk?.(chunk);
      },
      ...rest,
    });
    const pick = (stream: OutputChunk["stream"]) =>
      text(concatBytes(chunks.filter((chunk) => chunk.stream === stream).map((chunk) => chunk.bytes)));
    return { result, chunks, stdout: pick("stdout"), stderr: pick("stderr") };
  };
  /** True when process `pid` still runs in the environment (asked through the adapter itself). */
  /** Options that abort the run once its stdout holds `count` complete lines. */
  const abortAfterLines = (count: number): Partial<ExecOptions> => {
    const controller = new AbortController();
    let text = "";
    return {
      signal: controller.signal,
      onChunk: (chunk) => {
        if (chunk.stream !== "stdout") return;
        text += new TextDecoder().decode(chunk.bytes);
        if (text.split("\n").length > count) controller.abort();
      },
    };
  };
  const isRunning = async (pid: string): Promise<boolean> => {
    const probe = await run(`kill -0 ${pid} 2>/dev/null && ! grep -qs '^State:.*Z' /proc/${pid}/status`);
    return probe.result.exitCode === 0;
  };

  describe("exec", () => {
    check("exit code 0 is completed, non-zero is failed with the code", async () => {
      const ok = await run("exit 0");
      expect(ok.result).toMatchObject({ status: "completed", exitCode: 0 });
      const bad = await run("exit 3");
      expect(bad.result).toMatchObject({ status: "failed", exitCode: 3 });
      expect(bad.result.cleanup.termSent).toBe(false);
    });
    check("separates stdout and stderr, counts bytes, numbers chunks 0,1,2... in order", async () => {
      const { result, chunks, stdout, stderr } = await run("echo out; echo err >&2; echo more");
      expect(stdout).toBe("out\nmore\n");
      expect(stderr).toBe("err\n");
      expect(result.stdoutBytes).toBe(9);
      expect(result.stderrBytes).toBe(4);
      expect(chunks.map((chunk) => chunk.seq)).toEqual(chunks.map((_, index) => index));
      expect(result.elapsedMs).toBeGreaterThanOrEqual(0);
    });
    check(
      "delivers large output completely",
      async () => {
        const { result, stdout } = await run(
          "i=0; while [ $i -lt 20000 ]; do echo line-$i; i=$((i+1)); done",
        );
        const lines = stdout.split("\n");
        expect(lines.length).toBe(20001);
        expect(lines[19999]).toBe("line-19999");
        expect(result.stdoutBytes).toBe(stdout.length);
      },
      60_000,
    );
    check("runs in cwd (a directory with spaces and unicode)", async () => {
      const dir = get().path("exec cwd ü");
      await get().ops.mkdir(dir);
      const { stdout } = await run("pwd", { cwd: dir });
      expect(stdout.trim()).toBe(await get().ops.realpath(dir));
    });
    check("a missing cwd rejects with not_found", async () => {
      await expectCode(run("true", { cwd: get().path("no-such-cwd") }), "not_found");
    });
    check("merges env over the base environment; undefined removes a variable", async () => {
      // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansion, not a template
      const { stdout } = await run('printf "%s|%s|%s" "$TACKLE_A" "${HOME-unset}" "${PATH:+haspath}"', {
        env: { TACKLE_A: "a b=c", HOME: undefined },
      });
      expect(stdout).toBe("a b=c|unset|haspath");
    });
    check("stdin is closed: a reading command sees end of input at once", async () => {
      const { result, stdout } = await run('cat; read line; echo "read=$?"');
      expect(result.status).toBe("completed");
      expect(stdout).toBe("read=1\n");
    });
    for (const shell of ["sh", "bash"] as const) {
      check(`runs in ${shell} when declared`, async () => {
        if (!get().options.shells.includes(shell)) {
          // Declared absent: nothing to prove about this shell beyond the declaration itself.
          expect(get().options.shells).not.toContain(shell);
          return;
        }
        // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansion, not a template
        const { stdout } = await run(shell === "bash" ? 'echo "${BASH_VERSION:+bash}"' : "echo sh", {
          shell,
        });
        expect(stdout).toBe(shell === "bash" ? "bash\n" : "sh\n");
      });
    }
    check(
      "a timeout ends the tree: status timed-out, SIGTERM sent and confirmed",
      async () => {
        const { result, stdout } = await run("echo started; sleep 30", { timeoutMs: 500 });
        expect(stdout).toBe("started\n");
        expect(result.status).toBe("timed-out");
        expect(result.exitCode).not.toBe(0);
        expect(result.cleanup).toMatchObject({ termSent: true, confirmed: true });
      },
      30_000,
    );
    check(
      "an abort during the call ends the tree: status cancelled",
      async () => {
        // Aborted once the child's pid line is out: the check below then has a pid to check.
        const { result, stdout } = await run("sleep 30 & echo $!; wait", abortAfterLines(1));
        expect(result.status).toBe("cancelled");
        expect(result.cleanup).toMatchObject({ termSent: true, confirmed: true });
        expect(stdout).toMatch(/^\d+\n$/);
        expect(await isRunning(stdout.trim())).toBe(false);
      },
      30_000,
    );
    check(
      "a command ignoring SIGTERM gets SIGKILL after the grace period",
      async () => {
        // Stopped once the pid line shows the trap is set (a fixed timeout could land before it,
        // and SIGTERM alone would then end the tree with the SIGKILL untested).
        const { result, stdout } = await run("trap '' TERM; sleep 60 & echo $!; wait", {
          killGraceMs: 500,
          ...abortAfterLines(1),
        });
        expect(result.status).toBe("cancelled");
        expect(result.cleanup).toMatchObject({ termSent: true, killSent: true, confirmed: true });
        expect(stdout).toMatch(/^\d+\n$/);
        expect(await isRunning(stdout.trim())).toBe(false);
      },
      30_000,
    );
    check(
      "a child ignoring SIGTERM whose parent SIGTERM ended gets SIGKILL after the grace, reported",
      async () => {
        // The shell itself dies of the SIGTERM; its child (pid line printed once its trap is set)
        // lives on: the adapter must still give it the grace, send SIGKILL and say so.
        const { result, stdout } = await run(`sh -c 'trap "" TERM; echo $$; exec sleep 60' & sleep 60`, {
          killGraceMs: 500,
          ...abortAfterLines(1),
        });
        expect(result.status).toBe("cancelled");
        expect(result.cleanup).toMatchObject({ termSent: true, killSent: true, confirmed: true });
        expect(stdout).toMatch(/^\d+\n$/);
        expect(await isRunning(stdout.trim())).toBe(false);
      },
      30_000,
    );
    check(
      "a background child holding stdout does not hang the call and does not outlive it",
      async () => {
        const { result, stdout } = await run("sleep 100 & echo $!");
        expect(result.status).toBe("completed");
        expect(result.exitCode).toBe(0);
        expect(await isRunning(stdout.trim())).toBe(false);
      },
      30_000,
    );
    check(
      "a grandchild holding stderr in a subshell does not hang the call and does not outlive it",
      async () => {
        const { result, stdout } = await run("(sh -c 'sleep 100' >&2 & echo $!) ; echo done");
        expect(result.status).toBe("completed");
        const [pid, done] = stdout.split("\n");
        expect(done).toBe("done");
        expect(await isRunning(pid!)).toBe(false);
      },
      30_000,
    );
    check(
      "a process that left the group (setsid) does not outlive the call",
      async () => {
        // Nothing outlives exec: also not a process in a session of its own, which a group kill
        // misses (adapters find it by what it inherited from the command).
        const { result, stdout } = await run("setsid sleep 100 >/dev/null 2>&1 & echo $!");
        expect(result.status).toBe("completed");
        expect(stdout).toMatch(/^\d+\n$/);
        expect(await isRunning(stdout.trim())).toBe(false);
      },
      30_000,
    );
    check(
      "a daemon (double fork into a new session) does not outlive the call",
      async () => {
        const { result, stdout } = await run(
          "setsid sh -c 'sleep 100 >/dev/null 2>&1 & echo $!' > daemon.pid; cat daemon.pid; rm -f daemon.pid",
          { cwd: get().root },
        );
        expect(result.status).toBe("completed");
        expect(stdout).toMatch(/^\d+\n$/);
        expect(await isRunning(stdout.trim())).toBe(false);
      },
      30_000,
    );
    check(
      "onSpawn reports the command's pid and process group while it runs",
      async () => {
        // The command waits for a file that only onSpawn creates: a report that came at the end
        // (or never) leaves it waiting until its timeout.
        const go = get().path("exec-spawned.flag");
        const spawns: ExecSpawn[] = [];
        const { result, stdout } = await run(`while [ ! -e '${go}' ]; do sleep 0.05; done; echo $$`, {
          timeoutMs: 30_000,
          onSpawn: (spawn) => {
            spawns.push(spawn);
            void get().ops.writeFile(go, "");
          },
        });
        expect(result.status).toBe("completed");
        expect(spawns).toHaveLength(1);
        expect(spawns[0]?.pid).toBe(Number(stdout.trim()));
        expect(spawns[0]?.pgid).toBe(spawns[0]?.pid);
        expect(result.cleanup.pid).toBe(spawns[0]?.pgid);
      },
      60_000,
    );
    check("onSpawn is not called for a command that could not start", async () => {
      const spawns: ExecSpawn[] = [];
      await expectCode(
        run("true", { cwd: get().path("no-such-cwd"), onSpawn: (s) => spawns.push(s) }),
        "not_found",
      );
      expect(spawns).toEqual([]);
    });
    check("a command killed by a signal is failed, with the signal or exit code 128+n", async () => {
      const { result } = await run("kill -9 $$");
      expect(result.status).toBe("failed");
      expect(result.signal === "SIGKILL" || result.exitCode === 137).toBe(true);
    });
    check("outputPath appends both streams in arrival order and still streams chunks", async () => {
      const file = get().path("exec-output.log");
      await get().ops.writeFile(file, "before\n");
      const { result, stdout } = await run("echo one; echo two >&2; echo three", { outputPath: file });
      expect(stdout).toBe("one\nthree\n");
      const written = text(await get().ops.readFile(file));
      expect(written.startsWith("before\n")).toBe(true);
      const lines = written.split("\n");
      expect([...lines].sort()).toEqual(["", "before", "one", "three", "two"]);
      expect(lines.indexOf("one")).toBeLessThan(lines.indexOf("three"));
      expect(result.stdoutBytes + result.stderrBytes).toBe(written.length - "before\n".length);
    });
    check("outputPath with streamChunks false writes everything to the file, no chunks needed", async () => {
      const file = get().path("exec-direct.log");
      const { result } = await run("echo a; echo b >&2; exit 4", { outputPath: file, streamChunks: false });
      expect(result).toMatchObject({ status: "failed", exitCode: 4 });
      const written = text(await get().ops.readFile(file));
      expect([...written.split("\n")].sort()).toEqual(["", "a", "b"]);
      expect(result.stdoutBytes + result.stderrBytes).toBe(written.length);
    });
  });

  describe("exec: outputLimitBytes", () => {
    const LIMIT = 256 * 1024;
    const HEAD = outputHeadBytes(LIMIT);
    const TAIL = outputTailBytes(LIMIT);
    /** `seq 1 N` as the command prints it. */
    const numbers = (count: number) => Array.from({ length: count }, (_, i) => `${i + 1}\n`).join("");
    const headMarkerTail = (output: string) => {
      const dropped = output.length - HEAD - TAIL;
      return output.slice(0, HEAD) + outputCutMarker(LIMIT, dropped) + output.slice(output.length - TAIL);
    };
    for (const streamChunks of [false, true]) {
      const mode = streamChunks ? "streaming" : "file only";
      check(
        `${mode}: output past the limit keeps the head, a marker with the bytes dropped, and the tail; the command runs to its end`,
        async () => {
          const file = get().path(`exec-limit-${mode.replace(" ", "-")}.log`);
          // One stream: the order between stdout and stderr is not kept through two pipes.
          const { result, stdout } = await run("seq 1 200000; exit 3", {
            outputPath: file,
            streamChunks,
            outputLimitBytes: LIMIT,
            timeoutMs: 60_000,
          });
          const output = numbers(200_000);
          expect(result).toMatchObject({ status: "failed", exitCode: 3 });
          expect(result.outputCut).toEqual({
            headBytes: HEAD,
            droppedBytes: output.length - HEAD - TAIL,
            tailBytes: TAIL,
          });
          expect(text(await get().ops.readFile(file))).toBe(headMarkerTail(output));
          // The host still sees every chunk.
          if (streamChunks) expect(stdout).toBe(output);
        },
        60_000,
      );
    }
    check(
      "endless output past the limit runs until its timeout; the file keeps the head and the last bytes",
      async () => {
        const file = get().path("exec-limit-endless.log");
        const { result } = await run("while :; do echo 0123456789abcdefghijklmnopqrstuvwxyz; done", {
          outputPath: file,
          streamChunks: false,
          outputLimitBytes: LIMIT,
          timeoutMs: 1500,
        });
        expect(result.status).toBe("timed-out");
        expect(result.cleanup.confirmed).toBe(true);
        const cut = result.outputCut;
        expect(cut).toMatchObject({ headBytes: HEAD, tailBytes: TAIL });
        expect(cut?.droppedBytes).toBeGreaterThan(0);
        const marker = outputCutMarker(LIMIT, cut?.droppedBytes ?? 0);
        const written = text(await get().ops.readFile(file));
        expect(written.length).toBe(HEAD + marker.length + TAIL);
        expect(written.slice(HEAD, HEAD + marker.length)).toBe(marker);
        const line = "0123456789abcdefghijklmnopqrstuvwxyz\n";
        expect(written.slice(0, 2 * line.length)).toBe(line + line);
        // The tail is the stream's last bytes: whole lines up to its end (a killed echo may leave
        // a line unfinished only at the very end).
        expect(
          written
            .slice(HEAD + marker.length)
            .split("\n")
            .slice(1, -1)
            .every((l) => l === line.trim()),
        ).toBe(true);
      },
      60_000,
    );
    check("output up to the limit is whole, with no marker, and the command completes", async () => {
      const file = get().path("exec-limit-under.log");
      // seq 1 45000 prints 258,894 bytes: over the head, under the limit.
      const { result } = await run("seq 1 45000; echo b >&2", {
        outputPath: file,
        streamChunks: false,
        outputLimitBytes: LIMIT,
      });
      expect(result).toMatchObject({ status: "completed", exitCode: 0 });
      expect(result.outputCut).toBeUndefined();
      const written = text(await get().ops.readFile(file));
      expect(written.length).toBe(numbers(45_000).length + 2);
      expect(written.replace("b\n", "")).toBe(numbers(45_000));
    });
  });
}
