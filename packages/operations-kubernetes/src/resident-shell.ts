import type { ResidentShellHost } from "@tackle/operations/container-scripts";
import type { PodClient } from "./pod-client.js";

/**
 * The pod's side of the shared resident shells: each shell is one exec with stdin open. When the
 * exec connection goes away the API server closes stdin, so the shell exits at its next read.
 */
export function podShellHost(client: PodClient): ResidentShellHost {
  return {
    async start(argv) {
      const process = await client.start(argv, { stdin: true, operation: "connect" });
      return {
        frames: process.frames,
        write: (bytes) => process.write(bytes),
        hold: (busy) => process.hold(busy),
        detach: () => process.detach(),
        ended: () => process.ended,
      };
    },
    fail: (error, operation, path) => client.fail(error, operation, path),
  };
}
