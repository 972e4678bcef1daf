import { createLocalOperations } from "@tackle/operations-local";
import { createToolContext } from "../src/context/create-tool-context.js";
import { describeToolsConformance } from "../src/testing/index.js";

const operations = createLocalOperations();

describeToolsConformance("local", (cwd) => createToolContext({ cwd, operations }), {
  // Every write is fsynced (about 20 ms here): 1000 per writer when TACKLE_CONFORMANCE_ROUNDS says so.
  concurrentEditRounds: Number(process.env.TACKLE_CONFORMANCE_ROUNDS ?? 200),
  // Two adapters in one host: the second context has an adapter object of its own.
  makeSecondContext: (cwd) => createToolContext({ cwd, operations: createLocalOperations() }),
});
