import { readFile } from "node:fs/promises";
import {
  type FauxBlock,
  type FauxReply,
  fauxText,
  fauxThinking,
  fauxToolCall,
} from "@tackle/agent-core/testing";
import { UsageError } from "./usage-error.js";

/** One scripted model reply in a `tackle run` script file. */
export interface ScriptReply {
  thinking?: string;
  text?: string;
  toolCalls?: { name: string; arguments?: unknown; id?: string }[];
}

/** A `tackle run` script: the user's prompt and the faux model's replies, in order. */
export interface AgentScript {
  prompt: string;
  systemPrompt?: string;
  replies: ScriptReply[];
}

function fail(file: string, what: string): never {
  throw new UsageError(
    `Script ${file}: ${what}. A script is JSON: {"prompt": "...", "replies": [{"text": "..."}, {"toolCalls": [{"name": "ls", "arguments": {"path": "."}}]}]}.`,
  );
}

/** Reads and checks a script file; every problem is a {@link UsageError} naming the file and the fix. */
export async function loadScript(file: string): Promise<AgentScript> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw new UsageError(
      code === "ENOENT"
        ? `Script not found: ${file}. Check the path.`
        : `Cannot read script ${file}: ${(error as Error).message}.`,
    );
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    fail(file, `not valid JSON (${(error as Error).message})`);
  }
  const script = data as Partial<AgentScript>;
  if (typeof script !== "object" || script === null) fail(file, "not a JSON object");
  if (typeof script.prompt !== "string" || script.prompt === "")
    fail(file, `"prompt" must be a non-empty string`);
  if (!Array.isArray(script.replies) || script.replies.length === 0)
    fail(file, `"replies" must be a non-empty array`);
  script.replies.forEach((reply, index) => {
    if (typeof reply !== "object" || reply === null) fail(file, `reply ${index + 1} is not an object`);
    if (reply.text === undefined && reply.toolCalls === undefined && reply.thinking === undefined) {
      fail(file, `reply ${index + 1} has neither "text" nor "toolCalls"`);
    }
    for (const call of reply.toolCalls ?? []) {
      if (typeof call?.name !== "string") fail(file, `reply ${index + 1} has a tool call without a "name"`);
    }
  });
  return script as AgentScript;
}

/** Turns script replies into faux model replies. */
export function toFauxReplies(script: AgentScript): FauxReply[] {
  return script.replies.map((reply) => {
    const content: FauxBlock[] = [];
    if (reply.thinking) content.push(fauxThinking(reply.thinking));
    if (reply.text) content.push(fauxText(reply.text));
    for (const call of reply.toolCalls ?? [])
      content.push(fauxToolCall(call.name, call.arguments ?? {}, call.id));
    return { content };
  });
}
