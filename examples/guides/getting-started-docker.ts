// Getting started in Docker: the same session in a throwaway container; only the context changes.
// Run it with `IMAGE=node:20-slim npx tsx getting-started-docker.ts` (a local image: never pulled).
import { startSessionContainer } from "@tackle/operations-docker";
import { createToolContext } from "@tackle/tools";
import { firstSession } from "./first-session.js";

// #region context
// No network, removed when the context is disposed. DOCKER_HOST and the docker context are honoured.
const operations = await startSessionContainer({ image: process.env.IMAGE ?? "node:20-slim" });
const context = createToolContext({ cwd: "/tmp", operations, disposeOperations: true });
// #endregion context
try {
  await firstSession(context);
} finally {
  await context.dispose(); // stops and removes the container (disposeOperations)
}
