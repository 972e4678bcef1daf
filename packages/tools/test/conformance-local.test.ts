import { createLocalOperations } from "@tackle/operations-local";
import { createToolContext } from "../src/context/create-tool-context.js";
import { describeToolsConformance } from "../src/testing/index.js";

const operations = createLocalOperations();

describeToolsConformance("local", (cwd) => createToolContext({ cwd, operations }));
