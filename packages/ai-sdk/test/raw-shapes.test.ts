// The raw provider shapes, checked two ways: at compile time against the official SDKs' own
// types (`openai` and `@anthropic-ai/sdk`, dev dependencies only; `pnpm typecheck` compiles this
// file), and at run time for what they hold.
import type { Tool as AnthropicSdkTool, ToolResultBlockParam } from "@anthropic-ai/sdk/resources/messages";
import type { ToolOutcome } from "@tackle/agent-core";
import { toJsonSchema } from "@tackle/extensions";
import { createAllTools } from "@tackle/tools";
import { createLocalToolContext } from "@tackle/tools/local";
import type {
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
} from "openai/resources/chat/completions";
import type { FunctionTool, ResponseInputItem } from "openai/resources/responses/responses";
import { afterAll, describe, expect, it } from "vitest";
import {
  IMAGES_FOLLOW_TEXT,
  toAnthropicToolResult,
  toAnthropicTools,
  toOpenAIFunctionCallOutput,
  toOpenAIResponsesTools,
  toOpenAIToolMessages,
  toOpenAITools,
  toStrictJsonSchema,
} from "../src/index.js";

const context = createLocalToolContext();
afterAll(() => context.dispose());
const tools = Object.values(createAllTools({ context }));
const read = tools.find((tool) => tool.name === "read")!;
const image = { type: "image" as const, data: "iVBORw0KGgo=", mimeType: "image/png" };
const textOutcome: ToolOutcome = {
  content: [{ type: "text", text: "1\tline" }],
  details: {},
  isError: false,
};
const imageOutcome: ToolOutcome = {
  content: [{ type: "text", text: "Read image dot.png" }, image],
  details: {},
  isError: false,
};
const failed: ToolOutcome = {
  content: [{ type: "text", text: "File not found: a.ts. Did you mean b.ts?" }],
  details: {},
  isError: true,
  errorCode: "not_found",
};

describe("OpenAI raw shapes", () => {
  it("toOpenAITools: Chat Completions function tools, plain or strict", () => {
    const plain: ChatCompletionFunctionTool[] = toOpenAITools(tools);
    expect(plain[0]).toEqual({
      type: "function",
      function: {
        name: "read",
        description: read.description,
        parameters: toJsonSchema(read.parameters),
        strict: false,
      },
    });
    const strict: ChatCompletionFunctionTool[] = toOpenAITools(tools, { strict: true });
    expect(strict[0]!.function).toMatchObject({
      strict: true,
      parameters: toStrictJsonSchema(read.parameters),
    });
    expect(strict.every((tool) => tool.function.strict === true)).toBe(true);
  });

  it("toOpenAIResponsesTools: Responses API function tools", () => {
    const shaped: FunctionTool[] = toOpenAIResponsesTools([read], { strict: true });
    expect(shaped).toEqual([
      {
        type: "function",
        name: "read",
        description: read.description,
        parameters: toStrictJsonSchema(read.parameters),
        strict: true,
      },
    ]);
  });

  it("toOpenAIToolMessages: text in the tool message; images follow in a user message", () => {
    const plain: ChatCompletionMessageParam[] = toOpenAIToolMessages("call_1", textOutcome);
    expect(plain).toEqual([{ role: "tool", tool_call_id: "call_1", content: "1\tline" }]);
    const withImage: ChatCompletionMessageParam[] = toOpenAIToolMessages("call_2", imageOutcome);
    expect(withImage).toEqual([
      { role: "tool", tool_call_id: "call_2", content: `Read image dot.png\n${IMAGES_FOLLOW_TEXT}` },
      {
        role: "user",
        content: [
          { type: "text", text: "Images of tool result call_2:" },
          { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
        ],
      },
    ]);
    expect(toOpenAIToolMessages("call_3", failed)[0]).toMatchObject({
      content: failed.content[0]!.type === "text" ? failed.content[0]!.text : "",
    });
  });

  it("toOpenAIFunctionCallOutput: a Responses API item, images included", () => {
    const plain: ResponseInputItem = toOpenAIFunctionCallOutput("call_1", textOutcome);
    expect(plain).toEqual({ type: "function_call_output", call_id: "call_1", output: "1\tline" });
    const withImage: ResponseInputItem = toOpenAIFunctionCallOutput("call_2", imageOutcome);
    expect(withImage).toEqual({
      type: "function_call_output",
      call_id: "call_2",
      output: [
        { type: "input_text", text: "Read image dot.png" },
        { type: "input_image", image_url: "data:image/png;base64,iVBORw0KGgo=", detail: "auto" },
      ],
    });
  });
});

describe("Anthropic raw shapes", () => {
  it("toAnthropicTools: client tools with input_schema", () => {
    const shaped: AnthropicSdkTool[] = toAnthropicTools(tools);
    expect(shaped[0]).toEqual({
      name: "read",
      description: read.description,
      input_schema: toJsonSchema(read.parameters),
    });
    expect(shaped.map((tool) => tool.name)).toEqual(tools.map((tool) => tool.name));
  });

  it("toAnthropicToolResult: text and base64 images, is_error for failed calls", () => {
    const ok: ToolResultBlockParam = toAnthropicToolResult("toolu_1", imageOutcome);
    expect(ok).toEqual({
      type: "tool_result",
      tool_use_id: "toolu_1",
      content: [
        { type: "text", text: "Read image dot.png" },
        { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } },
      ],
      is_error: false,
    });
    const error: ToolResultBlockParam = toAnthropicToolResult("toolu_2", failed);
    expect(error).toMatchObject({
      is_error: true,
      content: [{ type: "text", text: expect.stringContaining("Did you mean") }],
    });
  });
});
