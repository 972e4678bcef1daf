// tools + operations-local: the common case, every file tool on this machine.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { invokeTool } from "@tackle/agent-core";
import { createLocalOperations } from "@tackle/operations-local";
import { createTool, createToolContext, disposeToolContext } from "@tackle/tools";
import { expectOk } from "./shared.js";

const cwd = await mkdtemp(join(tmpdir(), "tackle-consumer-local-"));
const context = createToolContext({ cwd, operations: createLocalOperations() });
try {
  const write = createTool("write", { context });
  const edit = createTool("edit", { context });
  const read = createTool("read", { context });
  const grep = createTool("grep", { context });
  const bash = createTool("bash", { context });
  expectOk("write", await invokeTool(write, { path: "src/app.ts", content: "export const answer = 41;\n" }));
  expectOk("read", await invokeTool(read, { path: "src/app.ts" }));
  expectOk("edit", await invokeTool(edit, { path: "src/app.ts", edits: [{ oldText: "41", newText: "42" }] }));
  const found = expectOk("grep", await invokeTool(grep, { pattern: "answer = 42" }));
  const ran = expectOk("bash", await invokeTool(bash, { command: "cat src/app.ts" }));
  console.log(JSON.stringify({ found: found.includes("src/app.ts:1"), ran: ran.includes("answer = 42") }));
} finally {
  await disposeToolContext(context);
  await rm(cwd, { recursive: true, force: true });
}
