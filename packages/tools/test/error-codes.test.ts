/**
 * Error codes end to end: an environment that drops its connection while a tool resolves its
 * path reaches the model (and the host) as `connection_lost` with "unreachable", on every tool,
 * in the outcome, the result message and the tool_execution_end event.
 */
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type AgentEvent,
  agentLoop,
  invokeTool,
  type ToolResultMessage,
  userMessage,
} from "@tackle/agent-core";
import { createFauxModel, fauxToolCall } from "@tackle/agent-core/testing";
import { OperationError, type Operations } from "@tackle/operations";
import { createLocalOperations } from "@tackle/operations-local";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createToolContext, type ToolContext } from "../src/context/create-tool-context.js";
import { createAllTools } from "../src/factories.js";

let dir: string;
let context: ToolContext;
/** Flipped to simulate the connection dropping: from then on every `realpath` fails. */
let dropped = false;

/** The local adapter, with `realpath` failing like a dropped SSH connection once `dropped` is set. */
function droppingOperations(): Operations {
  const ops = createLocalOperations();
  return new Proxy(ops, {
    get(target, property, receiver) {
      if (property === "realpath") {
        return (path: string, options?: { signal?: AbortSignal }) => {
          if (dropped) {
            return Promise.reject(
              new OperationError("connection_lost", "ssh: connection closed by remote host", {
                path,
                operation: "realpath",
              }),
            );
          }
          return target.realpath(path, options);
        };
      }
      return Reflect.get(target, property, receiver);
    },
  });
}

beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "tackle-codes-")));
  await mkdir(join(dir, "src"));
  await writeFile(join(dir, "src", "a.ts"), "const a = 1;\n");
  context = createToolContext({ cwd: dir, operations: droppingOperations() });
});
afterAll(async () => {
  dropped = false;
  await context.dispose();
  await rm(dir, { recursive: true, force: true });
});

const argsByTool: Record<string, unknown> = {
  read: { path: "src/a.ts" },
  write: { path: "src/b.ts", content: "x" },
  edit: { path: "src/a.ts", edits: [{ oldText: "1", newText: "2" }] },
  ls: { path: "src" },
  grep: { pattern: "const", path: "src" },
  find: { pattern: "*.ts", path: "src" },
  bash: { command: "true" },
};

describe("environment failures keep their code", () => {
  it("connection_lost while resolving a path, on every tool: 'unreachable', never 'check the arguments'", async () => {
    const tools = createAllTools({ context });
    dropped = true;
    try {
      for (const [name, args] of Object.entries(argsByTool)) {
        const tool = tools[name as keyof typeof tools];
        const outcome = await invokeTool(tool, args);
        const text = outcome.content.map((part) => (part.type === "text" ? part.text : "")).join("");
        expect(outcome, name).toMatchObject({ isError: true, errorCode: "connection_lost" });
        expect(text, name).toContain("The environment is unreachable");
        expect(text, name).not.toMatch(/check the arguments/i);
      }
    } finally {
      dropped = false;
    }
  });

  it("the code reaches the tool result message and the tool_execution_end event", async () => {
    const tools = createAllTools({ context });
    const faux = createFauxModel([{ content: [fauxToolCall("read", { path: "src/a.ts" }, "c1")] }, "done"]);
    dropped = true;
    const events: AgentEvent[] = [];
    try {
      const stream = agentLoop([userMessage("read it")], { messages: [], tools: Object.values(tools) }, faux);
      for await (const event of stream) events.push(event);
    } finally {
      dropped = false;
    }
    const end = events.find((event) => event.type === "tool_execution_end");
    expect(end).toMatchObject({ isError: true, errorCode: "connection_lost" });
    const message = events
      .filter((event) => event.type === "message_end")
      .map((event) => event.message)
      .find((m): m is ToolResultMessage => m.role === "toolResult");
    expect(message).toMatchObject({ toolCallId: "c1", isError: true, errorCode: "connection_lost" });
  });
});
