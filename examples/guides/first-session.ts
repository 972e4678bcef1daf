// The first session of the getting-started guide: write, grep, read, edit and run a small script
// with the tools of one context. It does not know which environment the context is on.
import { invokeTool, type ToolOutcome } from "@tackle/agent-core";
import { createTools, type ToolContext } from "@tackle/tools";

function show(title: string, outcome: ToolOutcome): void {
  const text = outcome.content.map((part) => (part.type === "text" ? part.text : "[image]")).join("\n");
  console.log(`--- ${title}${outcome.isError ? ` (error: ${outcome.errorCode})` : ""}\n${text}`);
}

export async function firstSession(context: ToolContext): Promise<void> {
  const { write, grep, read, edit, bash } = createTools({
    context,
    names: ["write", "grep", "read", "edit", "bash"],
  });
  show("write", await invokeTool(write, { path: "greet.sh", content: 'echo "Hello $1"\n' }));
  show("grep", await invokeTool(grep, { pattern: "Hello" }));
  show("read", await invokeTool(read, { path: "greet.sh" }));
  // edit refuses a file changed since the session read it: read first, then edit.
  const edits = [{ oldText: "Hello", newText: "Hi" }];
  show("edit", await invokeTool(edit, { path: "greet.sh", edits }));
  show("bash", await invokeTool(bash, { command: "sh greet.sh Ada" }));
}
