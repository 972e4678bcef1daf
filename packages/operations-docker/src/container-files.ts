import { throwIfAborted } from "@tackle/operations";
import { ResidentShellPool, ScriptFiles, type ScriptTransport } from "@tackle/operations/container-scripts";
import type { ContainerClient } from "./container-client.js";
import { DockerOperationError } from "./engine-error.js";
import { containerShellHost } from "./resident-shell.js";

/**
 * The file half of `Operations` inside a container: the shared file scripts (`ScriptFiles`), run
 * as the adapter's user on a resident shell or as an exec of their own. With `resident`, scripts
 * run in a pool of long-lived shells; `writerDomain` gives the `tempFileDomain` of the
 * container's process table, learnt when the adapter connects.
 */
export function createContainerFiles(
  client: ContainerClient,
  resident: boolean,
  writerDomain: () => string,
): ScriptFiles {
  const transport: ScriptTransport = {
    place: "container",
    shells: resident ? new ResidentShellPool(containerShellHost(client)) : undefined,
    run: (argv, { operation, path, signal, stdin }) =>
      client.run(argv, { operation, path, ...(signal ? { signal } : {}), ...(stdin ? { stdin } : {}) }),
    async *stream(argv, { operation, path, signal }) {
      const process = await client.start(argv, { operation, path });
      const onAbort = () => process.detach();
      signal?.addEventListener("abort", onAbort, { once: true });
      try {
        try {
          for await (const frame of process.frames) if (frame.stream === "stdout") yield frame.bytes;
        } catch (error) {
          throwIfAborted(signal, operation);
          throw client.fail(error, operation, path);
        }
        throwIfAborted(signal, operation);
        return await process.exitCode();
      } finally {
        signal?.removeEventListener("abort", onAbort);
        process.detach();
      }
    },
    lost: (operation, path) =>
      new DockerOperationError(
        "container_not_running",
        `${operation}: container ${client.containerName} stopped during the call`,
        { operation, path },
      ),
    explain: (error, operation, path) => client.explain(error, operation, path),
    writerDomain,
  };
  return new ScriptFiles(transport);
}
