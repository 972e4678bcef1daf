// The provider-defined tools end to end through the AI SDK: the real @ai-sdk/anthropic and
// @ai-sdk/openai clients reach the local wire-format server, their provider tools
// (anthropic.tools.textEditor_20250728 / bash_20250124, openai.tools.applyPatch / shell) run on
// @tackle/tools/native handlers over a copy of the demo workspace, and the next request must carry
// the answers in each provider's wire shape. Each native set fixes the demo.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createLocalToolContext } from "@tackle/tools/local";
import { createNativeToolHandlers } from "@tackle/tools/native";
import { stepCountIs, streamText, type ToolSet } from "ai";
import { afterEach, describe, expect, it } from "vitest";
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

async function nativeOnDemo() {
  workspace = await demoWorkspace();
  const context = createLocalToolContext({ cwd: workspace.dir });
  dispose = () => context.dispose();
  return { dir: workspace.dir, native: createNativeToolHandlers({ context }) };
}

/** The request body's items of a type (OpenAI `input`) or content blocks of a type (Anthropic `messages`). */
function inputItems(body: { input?: unknown[] }, type: string): Record<string, unknown>[] {
  return (body.input ?? []).filter((item) => (item as { type?: string }).type === type) as Record<
    string,
    unknown
  >[];
}

function toolResults(body: { messages: { content: unknown }[] }): Record<string, unknown>[] {
  return body.messages.flatMap((message) =>
    Array.isArray(message.content)
      ? (message.content as Record<string, unknown>[]).filter((block) => block.type === "tool_result")
      : [],
  );
}

const resultText = (block: Record<string, unknown>) =>
  typeof block.content === "string"
    ? block.content
    : (block.content as { text?: string }[]).map((part) => part.text ?? "").join("");

describe("Anthropic text_editor_20250728 and bash_20250124 through @ai-sdk/anthropic", () => {
  it("fixes the demo: view, a str_replace that misses (is_error), the right one, the test in bash", async () => {
    const { dir, native } = await nativeOnDemo();
    server = await startProviderServer([
      anthropicReply({
        calls: [
          {
            id: "toolu_1",
            name: "str_replace_based_edit_tool",
            args: { command: "view", path: "src/greet.mjs" },
          },
        ],
      }),
      anthropicReply({
        calls: [
          {
            id: "toolu_2",
            name: "str_replace_based_edit_tool",
            args: {
              command: "str_replace",
              path: "src/greet.mjs",
              old_str: WRONG_LINE,
              new_str: FIXED_LINE,
            },
          },
        ],
      }),
      anthropicReply({
        calls: [
          {
            id: "toolu_3",
            name: "str_replace_based_edit_tool",
            args: { command: "str_replace", path: "src/greet.mjs", old_str: BUGGY_LINE, new_str: FIXED_LINE },
          },
        ],
      }),
      anthropicReply({ calls: [{ id: "toolu_4", name: "bash", args: { command: "node test.mjs" } }] }),
      anthropicReply({ text: "Fixed." }),
    ]);
    const anthropic = createAnthropic({ baseURL: `${server.url}/v1`, apiKey: "test-key" });
    // streamText: the server speaks the streaming wire formats.
    const result = streamText({
      model: anthropic("claude-sonnet-4-5"),
      tools: {
        str_replace_based_edit_tool: anthropic.tools.textEditor_20250728({
          execute: native.anthropic.textEditor,
        }),
        bash: anthropic.tools.bash_20250124({ execute: native.anthropic.bash }),
      },
      stopWhen: stepCountIs(8),
      prompt: "Fix greet.",
    });
    expect(await result.text).toBe("Fixed.");
    expect(await readFile(path.join(dir, "src/greet.mjs"), "utf8")).toContain(FIXED_LINE);

    const first = server.requests[0]?.body;
    expect(first.tools).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: "text_editor_20250728", name: "str_replace_based_edit_tool" }),
        expect.objectContaining({ type: "bash_20250124", name: "bash" }),
      ]),
    );
    const results = toolResults(server.requests[4]?.body);
    const byId = (id: string) => results.find((block) => block.tool_use_id === id) as Record<string, unknown>;
    expect(resultText(byId("toolu_1"))).toMatch(/\d+\t.*greet/);
    expect(byId("toolu_2").is_error).toBe(true);
    expect(resultText(byId("toolu_2"))).toContain("First difference");
    expect(byId("toolu_3").is_error).not.toBe(true);
    expect(resultText(byId("toolu_4"))).toContain("Exit code 0");
  });
});

describe("OpenAI apply_patch and shell through @ai-sdk/openai (Responses)", () => {
  it("fixes the demo: a stale update_file (failed), the right one (completed), the test through shell", async () => {
    const { dir, native } = await nativeOnDemo();
    const update = (diff: string) => ({
      type: "apply_patch_call",
      id: "apc_1",
      call_id: "call_patch",
      operation: { type: "update_file", path: "src/greet.mjs", diff },
    });
    server = await startProviderServer([
      openaiResponsesReply({ items: [update(`@@\n-  ${WRONG_LINE}\n+  ${FIXED_LINE}\n`)] }),
      openaiResponsesReply({ items: [update(`@@\n-  ${BUGGY_LINE}\n+  ${FIXED_LINE}\n`)] }),
      openaiResponsesReply({
        items: [
          {
            type: "shell_call",
            id: "sc_1",
            call_id: "call_shell",
            action: { commands: ["node test.mjs", "exit 2"] },
          },
        ],
      }),
      openaiResponsesReply({ items: [] }),
    ]);
    const openai = createOpenAI({ baseURL: `${server.url}/v1`, apiKey: "test-key" });
    const result = streamText({
      model: openai.responses("gpt-5.1"),
      // @ai-sdk/openai 3.0.141 types its tools with provider-utils 4.0.66 and ai 6.0.326 with 4.0.65
      // (two copies of the schema symbol); the objects are the same at run time.
      tools: {
        apply_patch: openai.tools.applyPatch({ execute: native.openai.applyPatch }),
        shell: openai.tools.shell({ execute: native.openai.shell }),
      } as unknown as ToolSet,
      stopWhen: stepCountIs(8),
      prompt: "Fix greet.",
    });
    await result.consumeStream();
    expect(await readFile(path.join(dir, "src/greet.mjs"), "utf8")).toContain(FIXED_LINE);
    expect(server.requests[0]?.body.tools).toEqual(
      expect.arrayContaining([{ type: "apply_patch" }, expect.objectContaining({ type: "shell" })]),
    );
    const [failed] = inputItems(server.requests[1]?.body, "apply_patch_call_output");
    expect(failed).toMatchObject({ call_id: "call_patch", status: "failed" });
    expect(failed?.output).toContain("First difference");
    const outputs = inputItems(server.requests[2]?.body, "apply_patch_call_output");
    expect(outputs.at(-1)).toMatchObject({ call_id: "call_patch", status: "completed" });
    const [shell] = inputItems(server.requests[3]?.body, "shell_call_output");
    expect(shell).toMatchObject({ call_id: "call_shell" });
    const entries = shell?.output as { stdout: string; outcome: unknown }[];
    expect(entries[0]?.outcome).toEqual({ type: "exit", exit_code: 0 });
    expect(entries[1]?.outcome).toEqual({ type: "exit", exit_code: 2 });
  });
});
