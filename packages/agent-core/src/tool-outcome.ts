/**
 * Outcomes a call ends with when it does not end with the tool's own result: refusals, failures
 * a tool threw, an abort; and the tool's result made safe to hand to a model.
 */
import { reasonOf } from "./argument-snapshot.js";
import { boundText, wellFormed } from "./quote-input.js";
import type { AgentToolResult, AnyAgentTool, ToolOutcome } from "./tool.js";
import { type CoreErrorCode, isCoreErrorCode, isToolError } from "./tool-error.js";

/** The outcome of a tool's result (a result without a content list is the tool's bug). */
export function resultOutcome(toolName: string, result: AgentToolResult): ToolOutcome {
  if (result === null || typeof result !== "object" || !Array.isArray(result.content)) {
    return errorOutcome(
      "execution_failed",
      `Tool ${toolName} returned no content (a bug in the tool). Try another way or report it.`,
    );
  }
  const outcome: ToolOutcome = {
    content: result.content.map(wellFormedPart),
    details: result.details,
    isError: false,
  };
  if (result.terminate === true) outcome.terminate = true;
  return outcome;
}

/**
 * A content part with well-formed text: a tool that echoes an input (a path with a lone
 * surrogate) must not hand the model text some providers refuse outright.
 */
function wellFormedPart<T extends ToolOutcome["content"][number]>(part: T): T {
  if (part.type !== "text" || typeof part.text !== "string") return part;
  const text = wellFormed(part.text);
  return text === part.text ? part : { ...part, text };
}

/**
 * Maps anything a tool threw to an error outcome: a ToolError keeps its code, message and
 * details when its code is a core code or one the tool declares in `errorCodes`; with any other
 * code it is the tool author's bug, reported as `execution_failed` with the tool's message and
 * `details: { undeclaredCode, details }` (so hosts only ever see codes they can know). Must not
 * throw, also for a thrown value (or a tool) whose fields or `toString` throw.
 */
export function toolFailureOutcome(
  tool: Pick<AnyAgentTool, "name" | "errorCodes">,
  error: unknown,
  signal?: AbortSignal,
): ToolOutcome {
  let toolName = "(unnamed)";
  try {
    toolName = String(tool.name);
    if (isToolError(error)) {
      const code = String(error.code);
      const message = String(error.message);
      if (declares(tool, code)) return codedOutcome(code, message, error.details);
      const details: { undeclaredCode: string; details?: unknown } = { undeclaredCode: code };
      if (error.details !== undefined) details.details = error.details;
      return errorOutcome("execution_failed", message, details);
    }
  } catch {
    // A ToolError look-alike whose fields throw: reported below like any other failure.
  }
  if (signal?.aborted) return abortedOutcome(toolName);
  const reason = reasonOf(error);
  return errorOutcome(
    "execution_failed",
    `Tool ${toolName} failed: ${reason.replace(/[.\s]+$/, "")}. Check the arguments, or try another way.`,
  );
}

/** True when a tool may fail with `code`: a core code, or one of its `errorCodes`. */
function declares(tool: Pick<AnyAgentTool, "errorCodes">, code: string): boolean {
  if (isCoreErrorCode(code)) return true;
  const declared: unknown = tool.errorCodes;
  return typeof declared === "object" && declared !== null && Object.hasOwn(declared, code);
}

/**
 * An error outcome with a core code and a model-facing message. The message is made well-formed
 * and bounded (see `boundText`): whatever a tool quoted from its input, an error stays small.
 */
export function errorOutcome<TCode extends CoreErrorCode>(
  code: TCode,
  message: string,
  details: unknown = {},
): ToolOutcome<unknown, TCode> {
  return codedOutcome(code, message, details);
}

/** {@link errorOutcome} for any code (a tool's declared one). */
function codedOutcome<TCode extends string>(
  code: TCode,
  message: string,
  details: unknown = {},
): ToolOutcome<unknown, TCode> {
  return {
    content: [{ type: "text", text: boundText(message) }],
    details: details ?? {},
    isError: true,
    errorCode: code,
  };
}

export function abortedOutcome(toolName: string): ToolOutcome {
  return errorOutcome(
    "aborted",
    `Tool ${toolName} was aborted before it finished. Check its effects before calling it again.`,
  );
}
