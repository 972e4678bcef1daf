// The in-memory adapter of the "Write an Operations adapter" guide passes the conformance suite
// the shipped adapters run: every file check unchanged; it declares that it runs no commands and
// has no native search or tree listing, and the suite checks that it really offers none of them.
import { describeOperationsConformance } from "@tackle/operations/conformance";
import { createMemoryOperations } from "../guides/memory-operations.js";

describeOperationsConformance(
  "in-memory adapter",
  async () => {
    const ops = createMemoryOperations();
    await ops.mkdir("/conformance");
    return { ops, root: "/conformance" };
  },
  { exec: false, search: false, listTree: false },
);
