import type { ExecOptions, ExecResult } from "@tackle/operations";
import {
  envArguments,
  runWrappedCommand,
  STOP_SCRIPT,
  WRAPPER_SCRIPT,
  type WrappedCommandTransport,
} from "@tackle/operations/container-scripts";
import type { ContainerClient } from "./container-client.js";

/** Where the adapter keeps per-command control directories inside the container. */
export interface RunCommandContext {
  client: ContainerClient;
  tempDir: string;
}

/**
 * Runs `command` inside the container through the shared wrapper (`runWrappedCommand`): one
 * exec for the wrapper, whose stdin is not attached (no watchdog: the engine keeps the process
 * when the stream drops, and the adapter stops its group by marker), the variables it sets in the
 * exec's environment and the removals as the wrapper's `env -u`; the stop script in a second exec.
 * A container that stops mid-command gives status `unknown` with a note.
 */
export function runCommand(
  context: RunCommandContext,
  command: string,
  options: ExecOptions,
): Promise<ExecResult> {
  const { client } = context;
  const transport: WrappedCommandTransport = {
    place: "container",
    tempDir: context.tempDir,
    async start(call) {
      const removals = envArguments(call.options.env, { sets: false });
      const env = Object.entries(call.options.env ?? {}).flatMap(([key, value]) =>
        value === undefined ? [] : [`${key}=${value}`],
      );
      const argv = call.argv({ command: call.command, watchdog: "", commandBytes: "", env: removals });
      const process = await client.start(["sh", "-c", WRAPPER_SCRIPT, "sh", ...argv], {
        env,
        operation: "exec",
        path: call.options.cwd,
      });
      return {
        frames: process.frames,
        // Asked when the wrapper's end line did not come. Once the command started, that means
        // the wrapper was killed: every process of a container that stops gets SIGKILL.
        async ended(started) {
          try {
            const exitCode = await process.exitCode();
            if (exitCode !== undefined && !started) return { exitCode };
            const exit = exitCode === undefined ? "" : ` (exit ${exitCode})`;
            return {
              why: `container ${client.containerName} stopped while the command ran${exit}`,
              lost: true,
            };
          } catch (error) {
            return {
              why: `the engine stream broke: ${error instanceof Error ? error.message : String(error)}`,
              lost: true,
            };
          }
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
