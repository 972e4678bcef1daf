import type { ResidentShellHost } from "@tackle/operations/container-scripts";
import type { ContainerClient } from "./container-client.js";
import { DockerOperationError } from "./engine-error.js";

/** How often a pending request checks that the container still runs (a paused one hangs it). */
const WATCHDOG_MS = 2000;

/**
 * The container's side of the shared resident shells: each shell is one exec attached with
 * stdin open. A paused container freezes the shell without ending its stream, so while a
 * request is pending the container's state is checked every {@link WATCHDOG_MS}.
 */
export function containerShellHost(client: ContainerClient): ResidentShellHost {
  return {
    async start(argv) {
      const process = await client.start(argv, { stdin: "open", operation: "connect" });
      const input = process.input;
      if (!input) throw new Error("resident shell: no stdin");
      const socket = input as typeof input & { ref?: () => void; unref?: () => void };
      return {
        frames: process.frames,
        write: (bytes) => input.write(bytes),
        hold: (busy) => (busy ? socket.ref?.() : socket.unref?.()),
        detach: () => {
          input.end();
          process.detach();
        },
        ended: () => process.exitCode(),
      };
    },
    fail: (error, operation, path) => client.fail(error, operation, path),
    watchdog: {
      everyMs: WATCHDOG_MS,
      async check() {
        if (await client.isRunning()) return undefined;
        return new DockerOperationError(
          "container_not_running",
          `Container ${client.containerName} is not running (paused or stopped during the call)`,
          {},
        );
      },
    },
  };
}
