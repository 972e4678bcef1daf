/**
 * Tackle's tools, as a host uses them, on the AI SDK's just-bash session ("basic" mode): every
 * tool answers from the in-memory sandbox, and the workspace policy holds there too.
 */
import { createJustBashSandbox } from "@ai-sdk/sandbox-just-bash";
import { invokeTool, type ToolOutcome } from "@tackle/agent-core";
import { createToolContext, createTools } from "@tackle/tools";
import { beforeAll, describe, expect, it } from "vitest";
import { createSandboxSessionOperations } from "../src/index.js";

const textOf = (outcome: ToolOutcome) =>
  outcome.content.map((part) => (part.type === "text" ? part.text : "")).join("\n");

let tools: ReturnType<typeof makeTools>;
function makeTools(operations: ReturnType<typeof createSandboxSessionOperations>) {
  const context = createToolContext({ cwd: "/work/repo", operations });
  return createTools({ context, names: ["read", "write", "edit", "ls", "find", "grep", "bash"] });
}

beforeAll(async () => {
  const sandbox = await createJustBashSandbox({ cwd: "/work" }).createSession();
  const session = sandbox.restricted();
  // just-bash starts without /tmp, where the shell tools keep long outputs (a real machine has one).
  await session.run({
    command: "mkdir -p /tmp /work/repo/src /work/secret && echo 'password' > /work/secret/key",
  });
  tools = makeTools(createSandboxSessionOperations(session));
});

describe("Tackle's tools on the AI SDK's just-bash session", () => {
  it("write, edit and read files", async () => {
    expect(
      (await invokeTool(tools.write, { path: "src/a.ts", content: "export const a = 1;\n" })).isError,
    ).toBe(false);
    const edited = await invokeTool(tools.edit, {
      path: "src/a.ts",
      edits: [{ oldText: "a = 1", newText: "a = 2" }],
    });
    expect(edited.isError, textOf(edited)).toBe(false);
    expect(
      (await invokeTool(tools.write, { path: "src/b.ts", content: "export const b = 3;\n" })).isError,
    ).toBe(false);
    const read = await invokeTool(tools.read, { path: "src/a.ts" });
    expect(textOf(read)).toContain("export const a = 2;");
  });

  it("ls, find and grep walk the sandbox's tree", async () => {
    expect(textOf(await invokeTool(tools.ls, { path: "src" }))).toMatch(/a\.ts[\s\S]*b\.ts/);
    expect(textOf(await invokeTool(tools.find, { pattern: "*.ts" }))).toContain("src/b.ts");
    expect(textOf(await invokeTool(tools.grep, { pattern: "const b" }))).toContain("src/b.ts");
  });

  it("bash runs in the sandbox and answers output and exit code", async () => {
    const ok = await invokeTool(tools.bash, { command: "cat src/b.ts; echo done" });
    expect(ok.isError, textOf(ok)).toBe(false);
    expect(textOf(ok)).toContain("export const b = 3;");
    const failed = await invokeTool(tools.bash, { command: "echo nope >&2; exit 7" });
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toContain("7");
  });

  it("the workspace policy refuses a path outside the workspace", async () => {
    const outside = await invokeTool(tools.read, { path: "/work/secret/key" });
    expect(outside.isError).toBe(true);
    expect(textOf(outside)).not.toContain("password");
  });
});
