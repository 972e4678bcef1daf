// Agent events into the AI SDK's UI message stream: the chunks go through the SDK's own
// createUIMessageStream and readUIMessageStream, which assemble what a useChat client shows.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { Agent } from "@tackle/agent-core";
import { createFauxModel, fauxText, fauxToolCall } from "@tackle/agent-core/testing";
import { createUIMessageStream, readUIMessageStream, type UIMessage } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { createUIMessageChunks, type UIMessageChunksOptions } from "../src/index.js";
import { demoWorkspace, type Workspace } from "./support/workspace.js";

let workspace: Workspace | undefined;
afterEach(async () => {
  await workspace?.dispose();
  workspace = undefined;
});

/** Runs the agent on `script` and returns the last UI message the SDK assembled from the stream. */
async function uiMessageOf(script: Parameters<typeof createFauxModel>[0], options?: UIMessageChunksOptions) {
  workspace = await demoWorkspace();
  const faux = createFauxModel(script, { chunkSize: 4 });
  const agent = new Agent({ model: faux.model, streamFn: faux.streamFn, tools: workspace.tools });
  const stream = createUIMessageStream({
    execute: async ({ writer }) => {
      const toChunks = createUIMessageChunks(options);
      const unsubscribe = agent.subscribe((event) => {
        for (const chunk of toChunks(event)) writer.write(chunk);
      });
      await agent.prompt("Fix the greeting.");
      unsubscribe();
    },
  });
  let last: UIMessage | undefined;
  for await (const message of readUIMessageStream({ stream })) last = message;
  return last!;
}

describe("createUIMessageChunks", () => {
  it("text, a tool call with its input and output, and the final text become the parts useChat shows", async () => {
    const message = await uiMessageOf([
      { content: [fauxText("Reading it."), fauxToolCall("read", { path: "src/greet.mjs" }, "c1")] },
      "It lacks a '!'.",
    ]);
    const kinds = message.parts.map((part) => part.type).filter((type) => type !== "step-start");
    expect(kinds).toEqual(["text", "tool-read", "text"]);
    const tool = message.parts.find((part) => part.type === "tool-read") as {
      state: string;
      input: unknown;
      output: { content: { text: string }[]; isError: boolean };
    };
    expect(tool.state).toBe("output-available");
    expect(tool.input).toEqual({ path: "src/greet.mjs" });
    expect(tool.output.content[0]!.text).toContain("export function greet");
    expect(message.parts.at(-1)).toMatchObject({ type: "text", text: "It lacks a '!'." });
  });

  it("by default no details reach the stream: no host path of the workspace", async () => {
    const message = await uiMessageOf([
      { content: [fauxToolCall("read", { path: "src/greet.mjs" }, "c1")] },
      "ok",
    ]);
    const tool = message.parts.find((part) => part.type === "tool-read") as { output: object };
    expect(Object.keys(tool.output).sort()).toEqual(["content", "isError"]);
    expect(JSON.stringify(message)).not.toContain(workspace!.dir);
  });

  it('details "full" sends them', async () => {
    const message = await uiMessageOf(
      [{ content: [fauxToolCall("read", { path: "src/greet.mjs" }, "c1")] }, "ok"],
      {
        details: "full",
      },
    );
    expect(JSON.stringify(message)).toContain(workspace!.dir);
  });

  it("a failed call is the tool part's error text, with the message the model read", async () => {
    const message = await uiMessageOf([
      { content: [fauxToolCall("read", { path: "nope.txt" }, "c1")] },
      "ok",
    ]);
    const tool = message.parts.find((part) => part.type === "tool-read") as {
      state: string;
      errorText: string;
    };
    expect(tool.state).toBe("output-error");
    expect(tool.errorText).toContain("nope.txt");
  });

  it("live progress arrives as preliminary outputs before the result", async () => {
    const seen: string[] = [];
    workspace = await demoWorkspace();
    const faux = createFauxModel([
      // The command waits for a file the test writes once the first progress arrived.
      {
        content: [
          fauxToolCall("bash", { command: "echo one; until [ -f go ]; do sleep 0.05; done; echo two" }, "c1"),
        ],
      },
      "ok",
    ]);
    const agent = new Agent({ model: faux.model, streamFn: faux.streamFn, tools: workspace.tools });
    const toChunks = createUIMessageChunks();
    agent.subscribe((event) => {
      for (const chunk of toChunks(event))
        if (chunk.type === "tool-output-available") {
          seen.push(chunk.preliminary ? "preliminary" : "final");
          if (chunk.preliminary) writeFileSync(path.join(workspace!.dir, "go"), "");
        }
    });
    await agent.prompt("go");
    expect(seen.at(-1)).toBe("final");
    expect(seen.slice(0, -1)).toContain("preliminary");
  });
});
