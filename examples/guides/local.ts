// Work on this machine: a project folder as the workspace, a second folder the model may only
// read, and the tools a coding agent gets. Run it with `npx tsx local.ts`.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { invokeTool, type ToolOutcome } from "@tackle/agent-core";
import { createTools } from "@tackle/tools";
import { createLocalToolContext } from "@tackle/tools/local";

function show(title: string, outcome: ToolOutcome): void {
  const text = outcome.content.map((part) => (part.type === "text" ? part.text : "[image]")).join("\n");
  const error = outcome.isError ? ` (error: ${outcome.errorCode})` : "";
  console.log(`--- ${title}${error}\n${text}`);
}

// A project and a folder of notes beside it (your real folders in practice).
const base = await mkdtemp(join(tmpdir(), "tackle-local-"));
const project = join(base, "project");
const notes = join(base, "notes");
await mkdir(join(project, "src"), { recursive: true });
await mkdir(notes);
await writeFile(join(project, "src", "app.ts"), "export const answer = 41;\n");
await writeFile(join(notes, "todo.md"), "- the answer is 42\n");

const context = createLocalToolContext({
  cwd: project, // relative paths start here
  roots: [project, notes], // the workspace: the tools reach these folders
  outside: "deny", // anything else is refused (the default)
});
const tools = createTools({
  context,
  names: ["read", "edit", "grep", "find", "ls", "bash"],
});

try {
  show("find", await invokeTool(tools.find, { pattern: "*.ts" }));
  show("grep", await invokeTool(tools.grep, { pattern: "42", path: notes }));
  show("read", await invokeTool(tools.read, { path: "src/app.ts" }));
  const edits = [{ oldText: "41", newText: "42" }];
  show("edit", await invokeTool(tools.edit, { path: "src/app.ts", edits }));
  show("outside", await invokeTool(tools.read, { path: "/etc/hostname" }));
  show("bash", await invokeTool(tools.bash, { command: "cat src/app.ts" }));
} finally {
  await context.dispose();
  await rm(base, { recursive: true, force: true });
}
