// The file tools on the in-memory adapter: a project that exists only in this process.
// Run it with `npx tsx memory-session.ts` (memory-operations.ts next to it).
import { invokeTool } from "@tackle/agent-core";
import { createToolContext, createTools } from "@tackle/tools";
import { createMemoryOperations } from "./memory-operations.js";

// #region session
const operations = createMemoryOperations({
  files: {
    "/project/README.md": "# Demo\n\nA project in memory.\n",
    "/project/src/greet.ts": "export const greet = (name: string) => `Hello, ${name}`;\n",
  },
});
const context = createToolContext({ cwd: "/project", operations });
// No bash: this environment runs no commands, so the set holds the file tools only.
const tools = createTools({ context, names: ["ls", "read", "write", "edit", "grep", "find"] });

const calls: [keyof typeof tools, unknown][] = [
  ["ls", { path: "." }],
  ["read", { path: "src/greet.ts" }],
  ["edit", { path: "src/greet.ts", edits: [{ oldText: "Hello", newText: "Hi" }] }],
  [
    "write",
    { path: "src/main.ts", content: 'import { greet } from "./greet.js";\nconsole.log(greet("memory"));\n' },
  ],
  ["grep", { pattern: "greet", path: "src" }],
  ["find", { pattern: "*.ts" }],
];
for (const [name, args] of calls) {
  const outcome = await invokeTool(tools[name], args);
  const text = outcome.content.map((part) => (part.type === "text" ? part.text : "")).join("\n");
  console.log(`--- ${name}${outcome.isError ? ` (${outcome.errorCode})` : ""}\n${text}`);
}
await context.dispose();
// #endregion session
