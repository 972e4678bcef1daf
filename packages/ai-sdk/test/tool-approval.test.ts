// The SDK's tool approval on Tackle's shell policy, and what a tool's output carries, inside the
// SDK's own generateText with the real tools on a temp copy of the demo workspace.
import { existsSync } from "node:fs";
import path from "node:path";
import type { LanguageModelV3CallOptions, LanguageModelV3Content } from "@ai-sdk/provider";
import { asSchema, generateText, type ModelMessage, stepCountIs } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { afterEach, describe, expect, it } from "vitest";
import { toAISDKTools, toolApprovalFor } from "../src/index.js";
import { usage } from "./support/mock-model.js";
import { demoWorkspace, type Workspace } from "./support/workspace.js";

let workspace: Workspace | undefined;
afterEach(async () => {
  await workspace?.dispose();
  workspace = undefined;
});

/** A generate-mode model: the first step calls `bash` with `command`, later steps answer "done". */
function bashThenText(command: string) {
  const prompts: LanguageModelV3CallOptions[] = [];
  const model = new MockLanguageModelV3({
    doGenerate: async (options) => {
      prompts.push(options);
      const first = prompts.length === 1;
      const content: LanguageModelV3Content[] = first
        ? [{ type: "tool-call", toolCallId: "c1", toolName: "bash", input: JSON.stringify({ command }) }]
        : [{ type: "text", text: "done" }];
      return {
        content,
        finishReason: { unified: first ? "tool-calls" : "stop", raw: undefined },
        usage: usage(10, 2),
        warnings: [],
      };
    },
  });
  return { model, prompts };
}

async function ask(command: string) {
  workspace = await demoWorkspace();
  const tools = toAISDKTools(workspace.tools);
  const { model, prompts } = bashThenText(command);
  const prompt: ModelMessage[] = [{ role: "user", content: "go" }];
  const first = await generateText({
    model,
    tools,
    toolApproval: toolApprovalFor(workspace.tools),
    messages: prompt,
    stopWhen: stepCountIs(3),
  });
  return { tools, model, prompts, prompt, first, dir: workspace.dir };
}

describe("toolApprovalFor: the shell policy as the SDK's tool approval", () => {
  it("an ask becomes user-approval with the rules hit as its reason; nothing runs until a person answers", async () => {
    const { first, dir } = await ask("sudo true; touch ran.txt");
    const request = first.content.find((part) => part.type === "tool-approval-request");
    expect(request).toMatchObject({ type: "tool-approval-request", toolCall: { toolCallId: "c1" } });
    expect((request as { reason?: string }).reason).toContain("privilege-escalation");
    expect(existsSync(path.join(dir, "ran.txt"))).toBe(false);
  });

  it("an approved call runs once, and the policy's own ask is answered by that approval", async () => {
    const { tools, model, prompt, first, dir } = await ask("sudo true; touch ran.txt");
    const request = first.content.find((part) => part.type === "tool-approval-request") as {
      approvalId: string;
    };
    const second = await generateText({
      model,
      tools,
      toolApproval: toolApprovalFor(workspace!.tools),
      messages: [
        ...prompt,
        ...first.response.messages,
        {
          role: "tool",
          content: [{ type: "tool-approval-response", approvalId: request.approvalId, approved: true }],
        },
      ],
      stopWhen: stepCountIs(3),
    });
    // Without the approval reaching the tool, its headless UI would refuse: policy_denied, no file.
    expect(existsSync(path.join(dir, "ran.txt"))).toBe(true);
    expect(second.text).toBe("done");
  });

  it("a person's no runs nothing", async () => {
    const { tools, model, prompt, first, dir } = await ask("sudo true; touch ran.txt");
    const request = first.content.find((part) => part.type === "tool-approval-request") as {
      approvalId: string;
    };
    await generateText({
      model,
      tools,
      toolApproval: toolApprovalFor(workspace!.tools),
      messages: [
        ...prompt,
        ...first.response.messages,
        {
          role: "tool",
          content: [{ type: "tool-approval-response", approvalId: request.approvalId, approved: false }],
        },
      ],
      stopWhen: stepCountIs(3),
    });
    expect(existsSync(path.join(dir, "ran.txt"))).toBe(false);
  });

  it("a deny becomes denied, and the model reads the policy's refusal with its next step", async () => {
    const { first, prompts, dir } = await ask("vim notes.txt; touch ran.txt");
    // The SDK answers a denied status itself (an automatic request and its refusal).
    expect(first.content.find((part) => part.type === "tool-approval-response")).toMatchObject({
      approved: false,
      reason: expect.stringContaining("interactive-program"),
    });
    expect(existsSync(path.join(dir, "ran.txt"))).toBe(false);
    const sent = JSON.stringify(prompts[1]!.prompt);
    expect(sent).toContain("interactive-program");
    expect(sent).toContain("Rewrite the command");
  });

  it("a call the policy allows runs without asking", async () => {
    const { first, dir } = await ask("touch ran.txt");
    expect(first.content.some((part) => part.type === "tool-approval-request")).toBe(false);
    expect(existsSync(path.join(dir, "ran.txt"))).toBe(true);
  });
});

describe("toAISDKTools output: details and outputSchema", () => {
  async function readOutput(details?: "none") {
    workspace = await demoWorkspace();
    const tools = toAISDKTools(workspace.tools, details ? { details } : {});
    const result = await tools.read!.execute!(
      { path: "src/greet.mjs" },
      { toolCallId: "r1", messages: [], context: undefined },
    );
    return { tools, output: result as Record<string, unknown> };
  }

  it('details "none": the output holds no host path, only what the model reads', async () => {
    const { output } = await readOutput("none");
    expect(Object.keys(output).sort()).toEqual(["content", "isError"]);
    expect(JSON.stringify(output)).not.toContain(workspace!.dir);
  });

  it("by default the details go out as the tool returned them (host paths included)", async () => {
    const { output } = await readOutput();
    expect(JSON.stringify(output.details)).toContain(workspace!.dir);
  });

  it("a details function sends what it returns", async () => {
    workspace = await demoWorkspace();
    const tools = toAISDKTools(workspace.tools, { details: (_details, toolName) => ({ toolName }) });
    const output = await tools.read!.execute!(
      { path: "src/greet.mjs" },
      { toolCallId: "r1", messages: [], context: undefined },
    );
    expect((output as { details: unknown }).details).toEqual({ toolName: "read" });
  });

  it("every tool has an outputSchema: content and isError required, details only when sent", async () => {
    workspace = await demoWorkspace();
    const full = await asSchema(toAISDKTools(workspace.tools).grep!.outputSchema).jsonSchema;
    const none = await asSchema(toAISDKTools(workspace.tools, { details: "none" }).grep!.outputSchema)
      .jsonSchema;
    expect(full).toMatchObject({ required: ["content", "isError"] });
    expect(Object.keys((full as { properties: object }).properties)).toContain("details");
    expect(Object.keys((none as { properties: object }).properties)).not.toContain("details");
  });
});
