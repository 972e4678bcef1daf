import type { AssistantMessage, Message, ToolResultMessage } from "@tackle/agent-core";
import { describe, expect, it } from "vitest";
import { IMAGES_FOLLOW_TEXT, MISSING_RESULT_TEXT, toModelMessages } from "../src/index.js";

const now = 0;
const user = (text: string): Message => ({ role: "user", content: text, timestamp: now });
const assistant = (
  content: AssistantMessage["content"],
  stopReason: AssistantMessage["stopReason"] = "toolUse",
): Message => ({
  role: "assistant",
  content,
  stopReason,
  timestamp: now,
});
const call = (id: string, args: unknown = { path: "." }) => ({
  type: "toolCall" as const,
  id,
  name: "ls",
  arguments: args as Record<string, unknown>,
});
const result = (id: string, text = "ok", isError = false): ToolResultMessage => ({
  role: "toolResult",
  toolCallId: id,
  toolName: "ls",
  content: [{ type: "text", text }],
  details: {},
  isError,
  timestamp: now,
});

describe("toModelMessages", () => {
  it("puts consecutive tool results in one tool message, errors as error-text", () => {
    const messages = toModelMessages([
      user("go"),
      assistant([call("a"), call("b")]),
      result("a", "listing"),
      result("b", "No such dir. Use ls on the parent.", true),
    ]);
    expect(messages).toEqual([
      { role: "user", content: "go" },
      {
        role: "assistant",
        content: [
          { type: "tool-call", toolCallId: "a", toolName: "ls", input: { path: "." } },
          { type: "tool-call", toolCallId: "b", toolName: "ls", input: { path: "." } },
        ],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "a",
            toolName: "ls",
            output: { type: "text", value: "listing" },
          },
          {
            type: "tool-result",
            toolCallId: "b",
            toolName: "ls",
            output: { type: "error-text", value: "No such dir. Use ls on the parent." },
          },
        ],
      },
    ]);
  });

  it("drops the unfinished calls of an aborted reply, keeps its text, and continues cleanly", () => {
    const messages = toModelMessages([
      user("go"),
      assistant([{ type: "text", text: "Listing" }, call("cut", {})], "aborted"),
      user("continue"),
    ]);
    expect(messages).toEqual([
      { role: "user", content: "go" },
      { role: "assistant", content: [{ type: "text", text: "Listing" }] },
      { role: "user", content: "continue" },
    ]);
  });

  it("a failed reply with nothing left to send is left out", () => {
    expect(toModelMessages([user("go"), assistant([], "error"), user("again")])).toEqual([
      { role: "user", content: "go" },
      { role: "user", content: "again" },
    ]);
  });

  it("a call of a completed reply without a result gets an error result right after it", () => {
    const messages = toModelMessages([
      user("go"),
      assistant([call("a"), call("b")]),
      result("b"),
      user("next"),
    ]);
    expect(messages[2]).toEqual({
      role: "tool",
      content: [
        { type: "tool-result", toolCallId: "b", toolName: "ls", output: { type: "text", value: "ok" } },
        {
          type: "tool-result",
          toolCallId: "a",
          toolName: "ls",
          output: { type: "error-text", value: MISSING_RESULT_TEXT },
        },
      ],
    });
    expect(messages[3]).toEqual({ role: "user", content: "next" });
  });

  it("a result whose call is not in the conversation is left out (providers reject it)", () => {
    expect(toModelMessages([user("go"), result("ghost")])).toEqual([{ role: "user", content: "go" }]);
  });

  it("sends malformed arguments back as an object: parsed JSON text, else {}", () => {
    const messages = toModelMessages([
      assistant([call("a", '{"path":"src"}'), call("b", "{not json")], "toolUse"),
      result("a"),
      result("b", "Invalid arguments", true),
    ]);
    expect(messages[0]).toMatchObject({
      content: [{ input: { path: "src" } }, { input: {} }],
    });
  });

  it("leaves out empty text, keeps redacted reasoning (no text, provider data) and block metadata", () => {
    const messages = toModelMessages([
      assistant(
        [
          { type: "thinking", thinking: "", providerMetadata: { anthropic: { redactedData: "xyz" } } },
          { type: "thinking", thinking: "" },
          { type: "text", text: "" },
          { type: "text", text: "Answer", providerMetadata: { openai: { itemId: "msg_1" } } },
        ],
        "stop",
      ),
    ]);
    expect(messages).toEqual([
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "", providerOptions: { anthropic: { redactedData: "xyz" } } },
          { type: "text", text: "Answer", providerOptions: { openai: { itemId: "msg_1" } } },
        ],
      },
    ]);
  });

  it("with imagesInToolResults false, a result's images follow the tool results in a user message", () => {
    const withImage: ToolResultMessage = {
      ...result("b", "Read image dot.png"),
      content: [
        { type: "text", text: "Read image dot.png" },
        { type: "image", data: "AAAA", mimeType: "image/png" },
      ],
    };
    const messages = toModelMessages(
      [user("go"), assistant([call("a"), call("b")]), result("a"), withImage, user("next")],
      {
        imagesInToolResults: false,
      },
    );
    expect(messages.slice(2)).toEqual([
      {
        role: "tool",
        content: [
          { type: "tool-result", toolCallId: "a", toolName: "ls", output: { type: "text", value: "ok" } },
          {
            type: "tool-result",
            toolCallId: "b",
            toolName: "ls",
            output: { type: "text", value: `Read image dot.png\n${IMAGES_FOLLOW_TEXT}` },
          },
        ],
      },
      {
        role: "user",
        content: [
          { type: "text", text: "Images of tool result b:" },
          { type: "file", data: { type: "data", data: "AAAA" }, mediaType: "image/png" },
        ],
      },
      { role: "user", content: "next" },
    ]);
  });
});
