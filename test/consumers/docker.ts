// tools + operations-docker: type-checked, not run (it needs a container). `main` shows the
// whole setup a Docker-only user writes.
import { invokeTool } from "@tackle/agent-core";
import {
  createDockerOperations,
  type DockerConnection,
  DockerOperationError,
} from "@tackle/operations-docker";
import { createReadOnlyTools, createToolContext } from "@tackle/tools";
import { textOf } from "./shared.js";

export async function main(container: string, connection?: DockerConnection): Promise<string> {
  try {
    const operations = createDockerOperations(
      connection === undefined ? { container } : { container, docker: connection },
    );
    await operations.connect(); // a wrong container fails here, with its reason
    const context = createToolContext({ cwd: "/", operations });
    const { read } = createReadOnlyTools({ context });
    const outcome = await invokeTool(read, { path: "/etc/hostname" });
    await context.dispose();
    await operations.dispose();
    return textOf(outcome);
  } catch (error) {
    if (error instanceof DockerOperationError) return `docker: ${error.reason}`;
    throw error;
  }
}

console.log(typeof main);
