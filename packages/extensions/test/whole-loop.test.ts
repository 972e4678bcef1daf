import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Agent, type AgentEvent } from "@tackle/agent-core";
import { createFauxModel, fauxToolCall } from "@tackle/agent-core/testing";
import { afterEach, beforeEach, expect, it } from "vitest";
import { defineExtension } from "../src/extension.js";
import { isToolResultFor } from "../src/narrow.js";
import { ExtensionRunner } from "../src/runner.js";
import { createTestContext } from "./support/context.js";
import { writeDefinition } from "./support/inline-tools.js";

const examples = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../examples/extensions");

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "tackle-whole-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

it("whole loop: an extension blocks one call and another patches the next, and the model sees both", async () => {
  const seen: string[] = [];
  const stamp = defineExtension({
    name: "stamp",
    setup(api) {
      api.on("tool_result", (event) => {
        if (!isToolResultFor(event, writeDefinition) || event.isError) return undefined;
        return { content: [...event.content, { type: "text", text: `(reviewed ${event.details.path})` }] };
      });
      api.on("agent_end", (event) => void seen.push(`agent_end:${event.messages.length}`));
    },
  });
  const runner = new ExtensionRunner({
    context: () => createTestContext(dir),
    builtinTools: [writeDefinition],
    cwd: examples,
  });
  const loaded = await runner.load(["./protected-paths.ts", stamp]);
  expect(loaded).toEqual({ loaded: ["protected-paths", "stamp"], errors: [] });

  const faux = createFauxModel([
    {
      content: [
        fauxToolCall("write", { path: ".env", content: "TOKEN=1" }, "secret"),
        fauxToolCall("write", { path: "notes.md", content: "hello" }, "notes"),
      ],
    },
    "Wrote the notes; .env is protected.",
  ]);
  const agent = new Agent({
    ...faux,
    tools: runner.tools(),
    systemPrompt: runner.systemPrompt("You are a careful agent."),
    beforeToolCall: runner.beforeToolCall,
    afterToolCall: runner.afterToolCall,
  });
  const ends: AgentEvent[] = [];
  agent.subscribe((event) => {
    if (event.type === "tool_execution_end") ends.push(event);
    void runner.emit(event);
  });
  await agent.prompt("Save my token and write notes");

  const sent = faux.contexts[1]?.messages ?? [];
  const results = sent.filter((m) => m.role === "toolResult");
  expect(results.map((r) => [r.toolCallId, r.isError])).toEqual([
    ["secret", true],
    ["notes", false],
  ]);
  expect(results[0]?.content).toEqual([
    {
      type: "text",
      text: "Blocked: .env is protected (it holds secrets). Do not write it; tell the user what should change.",
    },
  ]);
  expect(results[1]?.content).toEqual([
    { type: "text", text: "Wrote notes.md." },
    { type: "text", text: "(reviewed notes.md)" },
  ]);
  expect(await stat(path.join(dir, ".env")).catch(() => undefined)).toBeUndefined();
  expect(await readFile(path.join(dir, "notes.md"), "utf8")).toBe("hello");
  expect(ends).toHaveLength(2);
  expect(faux.contexts[0]?.systemPrompt).toContain("You are a careful agent.");
  await agent.waitForIdle();
  expect(seen).toEqual(["agent_end:5"]);
});

it("whole loop: input rewritten by a tool_call handler is validated again; an invalid rewrite never runs", async () => {
  const rewrite = defineExtension({
    name: "rewrite",
    setup(api) {
      api.on("tool_call", (event) =>
        event.toolCallId === "moved"
          ? { input: { ...event.input, path: "elsewhere.md" } }
          : // A buggy rewrite: drops a required field.
            { input: { path: event.input.path } },
      );
    },
  });
  const runner = new ExtensionRunner({
    context: () => createTestContext(dir),
    builtinTools: [writeDefinition],
  });
  expect((await runner.load([rewrite])).errors).toEqual([]);
  const faux = createFauxModel([
    {
      content: [
        fauxToolCall("write", { path: "a.md", content: "moved" }, "moved"),
        fauxToolCall("write", { path: "b.md", content: "lost" }, "broken"),
      ],
    },
    "ok",
  ]);
  const agent = new Agent({
    ...faux,
    tools: runner.tools(),
    beforeToolCall: runner.beforeToolCall,
    afterToolCall: runner.afterToolCall,
  });
  await agent.prompt("write both");
  const results = (faux.contexts[1]?.messages ?? []).filter((m) => m.role === "toolResult");
  expect(results.map((r) => [r.toolCallId, r.isError])).toEqual([
    ["moved", false],
    ["broken", true],
  ]);
  const text = results[1]?.content.map((c) => (c.type === "text" ? c.text : "")).join("");
  expect(text).toContain("Not run: arguments set by the beforeToolCall hook are invalid.");
  expect(text).toContain("- content: expected string, received nothing.");
  expect(await readFile(path.join(dir, "elsewhere.md"), "utf8")).toBe("moved");
  expect(await stat(path.join(dir, "a.md")).catch(() => undefined)).toBeUndefined();
  expect(await stat(path.join(dir, "b.md")).catch(() => undefined)).toBeUndefined();
});
