/**
 * `Operations.exec` over a sandbox session whose commands run in a POSIX system: the shared
 * command wrapper of `@tackle/operations` (`runWrappedCommand`: own process group, relays,
 * output budget, sweep of escaped processes, TERM then KILL on a stop) on a transport that
 * starts the wrapper with the session's `spawn` and the stop script with its `run`.
 */
import type { ExecOptions, ExecResult } from "@tackle/operations";
import {
  envArguments,
  runWrappedCommand,
  STOP_SCRIPT,
  WRAPPER_SCRIPT,
  type WrappedCommandTransport,
  type WrappedProcess,
  type WrapperFrame,
} from "@tackle/operations/container-scripts";
import type { SandboxProcess } from "./sandbox-types.js";
import { type SessionShell, scriptLine, sessionFailure } from "./session-shell.js";

/** Runs `command` through the shared wrapper on the session (see the module comment). */
export function execOnSession(
  shell: SessionShell,
  tempDir: string,
  command: string,
  options: ExecOptions,
): Promise<ExecResult> {
  return runWrappedCommand(sessionTransport(shell, tempDir), command, options);
}

function sessionTransport(shell: SessionShell, tempDir: string): WrappedCommandTransport {
  return {
    place: "sandbox",
    tempDir,
    sandboxRefusal:
      "exec: sandbox unavailable: the sandbox session is the boundary, and this adapter adds no OS sandbox inside it. Call without the sandbox option (sandbox: false, tackle --no-sandbox).",
    async start(call): Promise<WrappedProcess> {
      // The session gives no stdin to hold: no watchdog, the command in the argv, every variable
      // as an `env` argument (the session's own env option cannot remove one).
      const argv = call.argv({
        command: call.command,
        watchdog: "",
        commandBytes: "",
        env: envArguments(call.options.env),
      });
      let process: SandboxProcess;
      try {
        process = await shell.session.spawn({ command: scriptLine(WRAPPER_SCRIPT, "sh", argv) });
      } catch (error) {
        throw sessionFailure(error, "exec", call.options.signal, call.options.cwd);
      }
      return {
        frames: framesOf(process),
        ended: async () => {
          try {
            return { exitCode: (await process.wait()).exitCode };
          } catch (error) {
            return { why: error instanceof Error ? error.message : String(error), lost: true };
          }
        },
        release: () => void Promise.resolve(process.kill()).catch(() => undefined),
      };
    },
    async runStop(args) {
      return (await shell.run(STOP_SCRIPT, args, "exec", undefined)).stdout;
    },
  };
}

/** Both output streams of `process` as frames, in the order their chunks arrive. */
async function* framesOf(process: SandboxProcess): AsyncGenerator<WrapperFrame> {
  const queue: WrapperFrame[] = [];
  let wake: (() => void) | undefined;
  let failure: { error: unknown } | undefined;
  const relay = async (stream: ReadableStream<Uint8Array>, name: WrapperFrame["stream"]) => {
    for await (const bytes of stream) {
      queue.push({ stream: name, bytes });
      wake?.();
    }
  };
  let open = 2;
  for (const [stream, name] of [
    [process.stdout, "stdout"],
    [process.stderr, "stderr"],
  ] as const) {
    relay(stream, name)
      .catch((error: unknown) => {
        failure ??= { error };
      })
      .finally(() => {
        open--;
        wake?.();
      });
  }
  for (;;) {
    const frame = queue.shift();
    if (frame) {
      yield frame;
      continue;
    }
    if (failure) throw failure.error;
    if (open === 0) return;
    await new Promise<void>((resolve) => {
      wake = resolve;
    });
    wake = undefined;
  }
}
