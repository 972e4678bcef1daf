import type { ExecOptions, ExecResult } from "@tackle/operations";
import {
  envArguments,
  runWrappedCommand,
  STOP_SCRIPT,
  WATCHDOG_SCRIPT,
  WRAPPER_SCRIPT,
  type WrappedCommandTransport,
} from "@tackle/operations/container-scripts";
import type { PodClient } from "./pod-client.js";

/**
 * Commands longer than this (UTF-8 bytes) go to the wrapper on stdin instead of in its argv: the
 * argv travels in the exec request's URL, and API servers and proxies cap URL lengths (Node's
 * HTTP parser at 16 KiB, Go's net/http at 1 MiB of headers).
 */
export const COMMAND_IN_URL_BYTES = 2048;

/** Where per-command control directories go in the container. */
export interface RunCommandContext {
  client: PodClient;
  tempDir: string;
}

/**
 * Runs `command` in the pod through the shared wrapper (`runWrappedCommand`): one exec with stdin
 * open and unused while the command runs, so the watchdog in the pod ends the command when the
 * connection drops; a long command comes on that stdin; the environment as `env` arguments (pod
 * exec takes none of its own); the stop script in a second exec. A dropped connection gives
 * status `unknown` with a note.
 */
export function runCommand(
  context: RunCommandContext,
  command: string,
  options: ExecOptions,
): Promise<ExecResult> {
  const { client } = context;
  const transport: WrappedCommandTransport = {
    place: "pod",
    tempDir: context.tempDir,
    async start(call) {
      const env = envArguments(call.options.env);
      const commandBytes = Buffer.from(call.command, "utf8");
      const viaStdin = commandBytes.length > COMMAND_IN_URL_BYTES;
      const argv = call.argv({
        command: viaStdin ? "" : call.command,
        watchdog: WATCHDOG_SCRIPT,
        commandBytes: viaStdin ? String(commandBytes.length) : "",
        env,
      });
      const process = await client.start(["sh", "-c", WRAPPER_SCRIPT, "sh", ...argv], {
        stdin: true,
        operation: "exec",
        path: call.options.cwd,
      });
      if (viaStdin) process.write(commandBytes);
      return {
        frames: process.frames,
        async ended() {
          const end = await process.ended;
          if (end.kind === "exited") return { exitCode: end.exitCode };
          if (end.kind === "lost")
            return { why: `${end.message}; the watchdog in the pod ends the command`, lost: true };
          return { why: `pod ${client.pod?.pod}: ${end.message}`, lost: false };
        },
        release: () => process.detach(),
      };
    },
    async runStop(args) {
      const result = await client.run(["sh", "-c", STOP_SCRIPT, "sh", ...args], { operation: "exec" });
      return result.stdout.toString("utf8");
    },
  };
  return runWrappedCommand(transport, command, options);
}
