import { throwIfAborted } from "@tackle/operations";
import { ResidentShellPool, ScriptFiles, type ScriptTransport } from "@tackle/operations/container-scripts";
import type { PodClient } from "./pod-client.js";
import { podShellHost } from "./resident-shell.js";

/**
 * The file half of `Operations` in a pod: the shared file scripts (`ScriptFiles`), each one exec
 * (or a request on a resident shell) as the container's user, so its permissions apply. An
 * aborted write is settled in the pod: once the connection is closed the pod cannot be watched.
 */
export function createPodFiles(
  client: PodClient,
  resident: boolean,
  writerDomain: () => string,
): ScriptFiles {
  const transport: ScriptTransport = {
    place: "pod",
    shells: resident ? new ResidentShellPool(podShellHost(client)) : undefined,
    run: (argv, { operation, path, signal, stdin }) =>
      client.run(argv, { operation, path, signal, ...(stdin ? { stdin } : {}) }),
    async *stream(argv, { operation, path, signal }) {
      const process = await client.start(argv, { operation, path });
      const onAbort = () => process.detach();
      signal?.addEventListener("abort", onAbort, { once: true });
      try {
        for await (const frame of process.frames) if (frame.stream === "stdout") yield frame.bytes;
        throwIfAborted(signal, operation);
        const end = await process.ended;
        return end.kind === "exited" ? end.exitCode : undefined;
      } finally {
        signal?.removeEventListener("abort", onAbort);
        process.detach();
      }
    },
    lost: (operation, path) => client.lost(operation, path),
    writerDomain,
    settleAbortedWrites: true,
  };
  return new ScriptFiles(transport);
}
