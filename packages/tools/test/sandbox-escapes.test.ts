import { existsSync } from "node:fs";
import { describe } from "vitest";
import { describeSandboxEscapeCorpus } from "../src/testing/sandbox-escapes.js";
import { localSandboxOperations } from "./support/local-sandbox-operations.js";

// The escape corpus through the local adapter. Runs only where the sandbox can (Linux with bwrap).
const supported = process.platform === "linux" && existsSync("/usr/bin/bwrap");

describe.runIf(supported)("local", () => {
  describeSandboxEscapeCorpus("local", { makeOperations: localSandboxOperations });
});
