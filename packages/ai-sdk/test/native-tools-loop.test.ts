// The native tool sets in Tackle's own loop: aiSdkModel declares each tool that implements a
// provider-defined tool (`providerTool`) as that provider's tool, and sends its results back in
// the provider's shape. The real @ai-sdk/openai (Responses) and @ai-sdk/anthropic clients reach
// the local wire-format server; the tools are @tackle/tools/native's, on a copy of the demo
// workspace, and each set fixes the demo. To another provider the same tools are function tools.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { Agent, type AnyAgentTool } from "@tackle/agent-core";
import { createLocalToolContext } from "@tackle/tools/local";
import { createAnthropicNativeTools, createOpenAINativeTools } from "@tackle/tools/native";
import { afterEach, describe, expect, it } from "vitest";
import { aiSdkModel } from "../src/index.js";
import {
  anthropicReply,
  openaiResponsesReply,
  type ProviderServer,
  startProviderServer,
} from "../src/testing/index.js";
import { demoWorkspace, type Workspace } from "./support/workspace.js";

// biome-ignore lint/suspicious/noTemplateCurlyInString: the demo source's own template literal
const BUGGY_LINE = "return `Hello, ${who}`;";
// biome-ignore lint/suspicious/noTemplateCurlyInString: the fixed line of the demo source
const FIXED_LINE = "return `Hello, ${who}!`;";
// biome-ignore lint/suspicious/noTemplateCurlyInString: a line a model misremembers
const WRONG_LINE = "return `Hi, ${who}`;";

let server: ProviderServer | undefined;
let workspace: Workspace | undefined;
let dispose: (() => Promise<void>) | undefined;
afterEach(async () => {
  await server?.close();
  await dispose?.();
  await workspace?.dispose();
  server = undefined;
  workspace = undefined;
  dispose = undefined;
});

/** The demo workspace and a context on it, for the native sets. */
async function demo() {
  workspace = await demoWorkspace();
  const context = createLocalToolContext({ cwd: workspace.dir });
  dispose = () => context.dispose();
  return { dir: workspace.dir, context };
}

type Item = Record<string, unknown>;
const itemsOf = (body: { input?: unknown[] }, type: string): Item[] =>
  (body.input ?? []).filter((item) => (item as Item).type === type) as Item[];
const blocksOf = (body: { messages: { content: unknown }[] }, type: string): Item[] =>
  body.messages.flatMap((message) =>
    Array.isArray(message.content) ? (message.content as Item[]).filter((block) => block.type === type) : [],
  );

const patchCall = (callId: string, diff: string): Item => ({
  type: "apply_patch_call",
  id: `apc_${callId}`,
  call_id: callId,
  operation: { type: "update_file", path: "src/greet.mjs", diff },
});

describe("aiSdkModel with OpenAI's native set (apply_patch, shell)", () => {
  it("declares the provider's tools, answers apply_patch_call_output and shell_call_output, and fixes the demo", async () => {
    const { dir, context } = await demo();
    const tools = createOpenAINativeTools({ context });
    server = await startProviderServer([
      openaiResponsesReply({ items: [patchCall("call_stale", `@@\n-  ${WRONG_LINE}\n+  ${FIXED_LINE}\n`)] }),
      openaiResponsesReply({ items: [patchCall("call_fix", `@@\n-  ${BUGGY_LINE}\n+  ${FIXED_LINE}\n`)] }),
      openaiResponsesReply({
        items: [
          {
            type: "shell_call",
            id: "sc_1",
            call_id: "call_shell",
            action: { commands: ["node test.mjs", "exit 3"], timeout_ms: 60_000 },
          },
        ],
      }),
      openaiResponsesReply({ text: "Fixed." }),
    ]);
    const openai = createOpenAI({ baseURL: `${server.url}/v1`, apiKey: "test-key" });
    const agent = new Agent({
      ...aiSdkModel(openai.responses("gpt-5.1")),
      tools: [tools.apply_patch, tools.shell],
    });
    await agent.prompt("Fix greet.");
    expect(agent.state.error).toBeUndefined();
    expect(await readFile(path.join(dir, "src/greet.mjs"), "utf8")).toContain(FIXED_LINE);

    const [first, second, third, fourth] = server.requests.map((request) => request.body);
    expect(first.tools).toEqual([{ type: "apply_patch" }, { type: "shell" }]);
    const [failed] = itemsOf(second, "apply_patch_call_output");
    expect(failed).toMatchObject({
      type: "apply_patch_call_output",
      call_id: "call_stale",
      status: "failed",
    });
    expect(failed?.output).toContain("hunk 1 (patch line 1) of src/greet.mjs");
    expect(failed?.output).toContain("First difference");
    expect(itemsOf(second, "function_call_output")).toEqual([]);
    expect(itemsOf(third, "apply_patch_call_output").at(-1)).toMatchObject({
      call_id: "call_fix",
      status: "completed",
      output: expect.stringContaining("M src/greet.mjs"),
    });
    const [shell] = itemsOf(fourth, "shell_call_output");
    expect(shell).toMatchObject({ call_id: "call_shell" });
    const entries = shell?.output as { stdout: string; outcome: unknown }[];
    expect(entries.map((entry) => entry.outcome)).toEqual([
      { type: "exit", exit_code: 0 },
      { type: "exit", exit_code: 3 },
    ]);
    expect(entries[0]?.stdout).toContain("1 test passed");
  });
});

describe("aiSdkModel with Anthropic's native set (text_editor_20250728, bash_20250124)", () => {
  it("declares the provider's tools with their settings, answers tool_result blocks (is_error on a miss), and fixes the demo", async () => {
    const { dir, context } = await demo();
    const tools = createAnthropicNativeTools({ context, textEditor: { maxCharacters: 20_000 } });
    const editor = "str_replace_based_edit_tool";
    server = await startProviderServer([
      anthropicReply({
        calls: [{ id: "toolu_1", name: editor, args: { command: "view", path: "src/greet.mjs" } }],
      }),
      anthropicReply({
        calls: [
          {
            id: "toolu_2",
            name: editor,
            args: { command: "str_replace", path: "src/greet.mjs", old_str: WRONG_LINE, new_str: FIXED_LINE },
          },
        ],
      }),
      anthropicReply({
        calls: [
          {
            id: "toolu_3",
            name: editor,
            args: { command: "str_replace", path: "src/greet.mjs", old_str: BUGGY_LINE, new_str: FIXED_LINE },
          },
        ],
      }),
      anthropicReply({ calls: [{ id: "toolu_4", name: "bash", args: { command: "node test.mjs" } }] }),
      anthropicReply({ text: "Fixed." }),
    ]);
    const anthropic = createAnthropic({ baseURL: `${server.url}/v1`, apiKey: "test-key" });
    const agent = new Agent({
      ...aiSdkModel(anthropic("claude-sonnet-4-5")),
      tools: [tools.str_replace_based_edit_tool, tools.bash],
    });
    await agent.prompt("Fix greet.");
    expect(agent.state.error).toBeUndefined();
    expect(await readFile(path.join(dir, "src/greet.mjs"), "utf8")).toContain(FIXED_LINE);

    const first = server.requests[0]?.body;
    expect(first.tools).toEqual([
      { type: "text_editor_20250728", name: editor, max_characters: 20_000 },
      { type: "bash_20250124", name: "bash" },
    ]);
    const results = blocksOf(server.requests[4]?.body, "tool_result");
    const byId = (id: string) => results.find((block) => block.tool_use_id === id) as Item;
    const text = (block: Item) => JSON.stringify(block.content);
    expect(text(byId("toolu_1"))).toMatch(/\d+\\t.*greet/);
    expect(byId("toolu_2").is_error).toBe(true);
    expect(text(byId("toolu_2"))).toContain("First difference");
    expect(byId("toolu_3").is_error).not.toBe(true);
    expect(text(byId("toolu_4"))).toContain("1 test passed");
  });
});

describe("a native tool given to another provider's model", () => {
  it("is a function tool with its schema, and its result is text", async () => {
    const { context } = await demo();
    const tools: AnyAgentTool[] = Object.values(createOpenAINativeTools({ context }));
    server = await startProviderServer([
      anthropicReply({
        calls: [
          {
            id: "toolu_1",
            name: "apply_patch",
            args: {
              callId: "c1",
              operation: {
                type: "update_file",
                path: "src/greet.mjs",
                diff: `@@\n-  ${BUGGY_LINE}\n+  ${FIXED_LINE}\n`,
              },
            },
          },
        ],
      }),
      anthropicReply({ text: "Fixed." }),
    ]);
    const anthropic = createAnthropic({ baseURL: `${server.url}/v1`, apiKey: "test-key" });
    const agent = new Agent({ ...aiSdkModel(anthropic("claude-sonnet-4-5")), tools });
    await agent.prompt("Fix greet.");
    const declared = server.requests[0]?.body.tools as Item[];
    expect(declared.map((tool) => tool.name)).toEqual(["apply_patch", "shell"]);
    expect(declared[0]).toMatchObject({ input_schema: { type: "object", required: ["operation"] } });
    expect(declared.some((tool) => "type" in tool && tool.type !== "custom")).toBe(false);
    const [result] = blocksOf(server.requests[1]?.body, "tool_result");
    expect(JSON.stringify(result?.content)).toContain("M src/greet.mjs");
  });
});
