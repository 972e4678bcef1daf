// tools + operations-local: the common case, every kind of tool on this machine through the
// one-line local default (`@tackle/tools/local`, which needs the optional peer operations-local).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { invokeTool } from "@tackle/agent-core";
import { createTools } from "@tackle/tools";
import { createLocalToolContext } from "@tackle/tools/local";
import { expectOk } from "./shared.js";

const cwd = await mkdtemp(join(tmpdir(), "tackle-consumer-local-"));
const context = createLocalToolContext({ cwd });
try {
  const { write, edit, read, grep, bash } = createTools({
    context,
    names: ["write", "edit", "read", "grep", "bash"],
  });
  expectOk("write", await invokeTool(write, { path: "src/app.ts", content: "export const answer = 41;\n" }));
  expectOk("read", await invokeTool(read, { path: "src/app.ts" }));
  expectOk("edit", await invokeTool(edit, { path: "src/app.ts", edits: [{ oldText: "41", newText: "42" }] }));
  const found = expectOk("grep", await invokeTool(grep, { pattern: "answer = 42" }));
  const ran = expectOk("bash", await invokeTool(bash, { command: "cat src/app.ts" }));
  console.log(JSON.stringify({ found: found.includes("src/app.ts:1"), ran: ran.includes("answer = 42") }));
} finally {
  await context.dispose();
  await rm(cwd, { recursive: true, force: true });
}
