import { type AnyAgentTool, prepareToolArguments } from "@tackle/agent-core";
import type { ModelMessage, ToolApprovalStatus } from "ai";
import { listTools, type ToolList } from "./tool-schemas.js";

/** The call the SDK asks about, as its generic `toolApproval` function receives it. */
export interface ApprovalQuestion {
  toolCall: { toolName: string; input: unknown };
}

/**
 * The AI SDK's `toolApproval` for Tackle tools, decided by each tool's own `checkApproval` (the
 * bash and powershell tools: their command policy) before the call runs:
 *
 * - the policy's `ask` becomes `user-approval`, its reason (the rules hit) shown to the approver;
 * - its `deny` becomes `denied` with the refusal the model reads, so nothing runs;
 * - everything else is `not-applicable` (runs without asking). Arguments that do not validate
 *   are left to the call, which fails with its usual message.
 *
 * A call a person approved then runs without asking again (see `toAISDKTools`): the shell tool's
 * own `ask` is answered by that approval.
 *
 * @example
 * ```ts
 * const tools = toAISDKTools(createCodingTools({ context }));
 * const result = streamText({ model, tools, toolApproval: toolApprovalFor(tools), prompt });
 * ```
 */
export function toolApprovalFor(
  tools: ToolList<AnyAgentTool>,
): (question: ApprovalQuestion) => Promise<ToolApprovalStatus> {
  const byName = new Map(listTools(tools).map((tool) => [tool.name, tool]));
  return async ({ toolCall }) => {
    const tool = byName.get(toolCall.toolName);
    if (tool?.checkApproval === undefined) return "not-applicable";
    const prepared = prepareToolArguments(tool, toolCall.input);
    if (!prepared.ok) return "not-applicable";
    const check = await tool.checkApproval(prepared.args);
    if (check.verdict === "allow") return "not-applicable";
    return { type: check.verdict === "ask" ? "user-approval" : "denied", reason: check.reason };
  };
}

/**
 * Whether the conversation holds a person's approval of `toolCallId`: an assistant's
 * `tool-approval-request` for it answered by an approving `tool-approval-response`. The SDK
 * only executes such a call after checking that answer (and its signature, when signed).
 */
export function approvedInMessages(messages: readonly ModelMessage[], toolCallId: string): boolean {
  const requests = new Set<string>();
  for (const message of messages) {
    if (message.role !== "assistant" || typeof message.content === "string") continue;
    for (const part of message.content)
      if (part.type === "tool-approval-request" && part.toolCallId === toolCallId)
        requests.add(part.approvalId);
  }
  if (requests.size === 0) return false;
  return messages.some(
    (message) =>
      message.role === "tool" &&
      message.content.some(
        (part) => part.type === "tool-approval-response" && part.approved && requests.has(part.approvalId),
      ),
  );
}
