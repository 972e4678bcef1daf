// Getting started: a model's everyday tools called by hand on a fresh temporary folder.
// Run it with `npx tsx getting-started.ts`.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { invokeTool, type ToolOutcome } from "@tackle/agent-core";
import { createTools } from "@tackle/tools";
import { createLocalToolContext } from "@tackle/tools/local";

const folder = await mkdtemp(join(tmpdir(), "tackle-start-"));
// #region context
// One context per session: the workspace, what was read, the session's artifacts.
const context = createLocalToolContext({ cwd: folder });
// #endregion context
const tools = createTools({ context, names: ["write", "grep", "read", "edit", "bash"] });

function show(title: string, outcome: ToolOutcome): void {
  const text = outcome.content.map((part) => (part.type === "text" ? part.text : "[image]")).join("\n");
  console.log(`--- ${title}${outcome.isError ? ` (error: ${outcome.errorCode})` : ""}\n${text}`);
}

try {
  const { write, grep, read, edit, bash } = tools;
  show("write", await invokeTool(write, { path: "greet.sh", content: 'echo "Hello $1"\n' }));
  show("grep", await invokeTool(grep, { pattern: "Hello" }));
  show("read", await invokeTool(read, { path: "greet.sh" }));
  // edit refuses a file changed since the session read it: read first, then edit.
  const edits = [{ oldText: "Hello", newText: "Hi" }];
  show("edit", await invokeTool(edit, { path: "greet.sh", edits }));
  show("bash", await invokeTool(bash, { command: "sh greet.sh Ada" }));
} finally {
  await context.dispose(); // ends background jobs, removes the session's artifacts
  await rm(folder, { recursive: true, force: true });
}
