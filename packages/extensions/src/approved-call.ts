// Calls a person approved before they ran. A host that asks ahead of the call (the AI SDK's tool
// approval, through AgentTool.checkApproval) runs the approved call inside this scope, and a
// tool's own question about the same call (the shell policy's `ask`) is answered yes without
// asking twice. The scope follows the call's async work and nothing else.
import { AsyncLocalStorage } from "node:async_hooks";

const approved = new AsyncLocalStorage<string>();

/**
 * Runs `run` as the call `toolCallId` that a person approved ahead of it. Only the host that
 * asked the person calls this; a tool never does.
 */
export function runApprovedCall<T>(toolCallId: string, run: () => T): T {
  return approved.run(toolCallId, run);
}

/** The id of the call a person approved ahead of it, when the caller runs inside one. */
export function approvedCallId(): string | undefined {
  return approved.getStore();
}
