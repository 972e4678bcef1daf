import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Type } from "@sinclair/typebox";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Agent } from "../src/agent.js";
import type { AgentEvent } from "../src/events.js";
import { createFauxModel, fauxToolCall } from "../src/faux-model.js";
import type { AgentTool } from "../src/tool.js";
import { ToolError } from "../src/tool-error.js";
import { deferred, echoTool } from "./support.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "tackle-agent-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("Agent", () => {
  it("runs a prompt, tells subscribers every event and keeps the conversation in state", async () => {
    const faux = createFauxModel([{ content: [fauxToolCall("echo", { text: "x" })] }, "done"]);
    const agent = new Agent({ ...faux, tools: [echoTool()] });
    const types: string[] = [];
    const unsubscribe = agent.subscribe((event) => types.push(event.type));
    await agent.prompt("hello");
    unsubscribe();
    expect(types[0]).toBe("agent_start");
    expect(types.at(-1)).toBe("agent_end");
    expect(agent.state.messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
    expect(agent.state.isRunning).toBe(false);
    expect(agent.state.pendingToolCalls.size).toBe(0);
  });

  it("refuses a second prompt while running, and waitForIdle resolves when the run ends", async () => {
    const gate = deferred();
    const faux = createFauxModel([{ content: [fauxToolCall("echo", { text: "x" })] }, "done"]);
    const agent = new Agent({ ...faux, tools: [echoTool("echo", { wait: () => gate.promise })] });
    const running = agent.prompt("first");
    expect(agent.state.isRunning).toBe(true);
    expect(() => agent.prompt("second")).toThrow("Agent is already running");
    gate.resolve();
    await agent.waitForIdle();
    await running;
    expect(agent.state.isRunning).toBe(false);
  });

  it("delivers steering messages at the next turn boundary and follow-ups when the run would end", async () => {
    const gate = deferred();
    const faux = createFauxModel([
      { content: [fauxToolCall("echo", { text: "x" })] },
      (context) => `saw: ${JSON.stringify(context.messages.at(-1))}`.slice(0, 40),
      "after follow-up",
    ]);
    const agent = new Agent({ ...faux, tools: [echoTool("echo", { wait: () => gate.promise })] });
    const running = agent.prompt("start");
    agent.steer("also check the tests");
    agent.followUp("now summarise");
    gate.resolve();
    await running;
    const roles = agent.state.messages.map((m) => m.role);
    expect(roles).toEqual(["user", "assistant", "toolResult", "user", "assistant", "user", "assistant"]);
    expect(agent.state.messages[3]).toMatchObject({ content: "also check the tests" });
    expect(agent.state.messages[5]).toMatchObject({ content: "now summarise" });
    // The model saw the steering message after the tool result, in the same run.
    expect(faux.contexts[1]?.messages.at(-1)).toMatchObject({
      role: "user",
      content: "also check the tests",
    });
  });

  it("abort() reaches the running tool; continue() resumes from the tool result", async () => {
    const started = deferred();
    const waiting: AgentTool = {
      ...echoTool(),
      execute: (_id, _args, signal) =>
        new Promise((_resolve, reject) => {
          started.resolve();
          signal?.addEventListener("abort", () => reject(new ToolError("aborted", "Stopped by the user.")));
        }),
    };
    const faux = createFauxModel([{ content: [fauxToolCall("echo", { text: "x" })] }, "resumed"]);
    const agent = new Agent({ ...faux, tools: [waiting] });
    const running = agent.prompt("go");
    await started.promise;
    agent.abort();
    await running;
    expect(agent.state.messages.at(-1)).toMatchObject({
      role: "toolResult",
      isError: true,
      content: [{ text: "Stopped by the user." }],
    });
    await agent.continue();
    expect(agent.state.messages.at(-1)).toMatchObject({ role: "assistant", content: [{ text: "resumed" }] });
    expect(() => agent.continue()).toThrow("Nothing to continue");
  });

  it("records the model's error in state and keeps going after a throwing subscriber", async () => {
    const agent = new Agent({ ...createFauxModel([]) });
    agent.subscribe(() => {
      throw new Error("ui crashed");
    });
    await agent.prompt("hi");
    expect(agent.state.error).toContain("Faux model script ran out");
  });
});

describe("whole loop with real files: a model that greps, then reads, then edits", () => {
  const grep: AgentTool = {
    name: "grep",
    label: "Grep",
    description: "Finds files containing a string.",
    parameters: Type.Object({ pattern: Type.String() }),
    async execute(_id, { pattern }) {
      const hits: string[] = [];
      for (const name of await readdir(dir)) {
        if ((await readFile(path.join(dir, name), "utf8")).includes(pattern)) hits.push(name);
      }
      return { content: [{ type: "text", text: hits.join("\n") || "no matches" }], details: { hits } };
    },
  };
  const read: AgentTool = {
    name: "read",
    label: "Read",
    description: "Reads a file.",
    parameters: Type.Object({ path: Type.String() }),
    async execute(_id, { path: file }) {
      return { content: [{ type: "text", text: await readFile(path.join(dir, file), "utf8") }], details: {} };
    },
  };
  const edit: AgentTool = {
    name: "edit",
    label: "Edit",
    description: "Replaces text in a file.",
    parameters: Type.Object({ path: Type.String(), oldText: Type.String(), newText: Type.String() }),
    executionMode: "sequential",
    async execute(_id, { path: file, oldText, newText }) {
      const full = path.join(dir, file);
      const text = await readFile(full, "utf8");
      if (!text.includes(oldText))
        throw new ToolError("no_match", `oldText not found in ${file}. Read it again.`);
      await writeFile(full, text.replace(oldText, newText));
      return { content: [{ type: "text", text: `Edited ${file}.` }], details: {} };
    },
  };

  it("finds the file, reads it, fixes it, and the fix is on disk", async () => {
    await writeFile(path.join(dir, "a.ts"), "export const answer = 41;\n");
    await writeFile(path.join(dir, "b.ts"), "export const other = 1;\n");
    const faux = createFauxModel([
      { content: [fauxToolCall("grep", { pattern: "answer" })] },
      (context) => {
        const last = context.messages.at(-1) as { content: { text: string }[] };
        return { content: [fauxToolCall("read", { path: last.content[0]?.text })] };
      },
      { content: [fauxToolCall("edit", { path: "a.ts", oldText: "41", newText: "42", note: "fix" })] },
      "Fixed the answer.",
    ]);
    const agent = new Agent({ ...faux, tools: [grep, read, edit] });
    const ends: AgentEvent[] = [];
    agent.subscribe((event) => {
      if (event.type === "tool_execution_end") ends.push(event);
    });
    await agent.prompt("make the answer 42");
    expect(await readFile(path.join(dir, "a.ts"), "utf8")).toBe("export const answer = 42;\n");
    expect(ends.map((e) => (e.type === "tool_execution_end" ? [e.toolName, e.isError] : []))).toEqual([
      ["grep", false],
      ["read", false],
      ["edit", false],
    ]);
    expect(agent.state.messages.at(-1)).toMatchObject({ content: [{ text: "Fixed the answer." }] });
  });
});
