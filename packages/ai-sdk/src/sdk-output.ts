import type { ToolOutcome } from "@tackle/agent-core";
import type { JSONSchema7 } from "ai";

/**
 * What of a result's `details` goes into an AI SDK tool's output, which the SDK keeps in its
 * messages and streams to UI clients (`useChat` shows it in the browser):
 *
 * - `"full"` (default): the details as the tool returned them. They hold host paths (the
 *   resolved file, the workspace root, artifact files), fine for a server-side agent;
 * - `"none"`: no details; the output is the model's content, `isError` and `errorCode`;
 * - a function: what to send instead (a summary, or the details without paths); return
 *   `undefined` to send none.
 *
 * The model reads `content` either way (through `toModelOutput`).
 */
export type DetailsOption = "full" | "none" | ((details: unknown, toolName: string) => unknown);

/**
 * An AI SDK tool's output: the call's outcome, its details as {@link DetailsOption} says.
 * `TErrorCode` is what `errorCode` may be: any code by default; narrow it to the codes of the
 * tools given (`SdkToolOutput<ToolErrorCode<typeof tool>>`, or `TackleToolErrorCode` from
 * `@tackle/tools` for Tackle's tools).
 *
 * @example
 * ```ts
 * const output = result.toolResults[0]?.output as SdkToolOutput<ToolErrorCode<typeof edit>>;
 * if (output.isError && output.errorCode === "no_match") console.log("edit found nothing to replace");
 * ```
 */
export type SdkToolOutput<TErrorCode extends string = string> = Omit<
  ToolOutcome<unknown, TErrorCode>,
  "details"
> & { details?: unknown };

/** The outcome as the SDK gets it. */
export function shapeOutput(
  outcome: ToolOutcome,
  option: DetailsOption | undefined,
  toolName: string,
): SdkToolOutput {
  if (option === undefined || option === "full") return outcome;
  const { details, ...rest } = outcome;
  if (option === "none") return rest;
  const shaped = option(details, toolName);
  return shaped === undefined ? rest : { ...rest, details: shaped };
}

const TEXT_PART: JSONSchema7 = {
  type: "object",
  properties: { type: { const: "text" }, text: { type: "string" } },
  required: ["type", "text"],
};
const IMAGE_PART: JSONSchema7 = {
  type: "object",
  properties: {
    type: { const: "image" },
    data: { type: "string", description: "base64" },
    mimeType: { type: "string" },
  },
  required: ["type", "data", "mimeType"],
};

/**
 * The JSON Schema of {@link SdkToolOutput}, the `outputSchema` of every tool `toAISDKTools`
 * makes: content parts for the model, `isError` with the `errorCode` hosts branch on, and the
 * tool's `details` object (left open: each tool documents its own) unless they are left out.
 */
export function outputJsonSchema(withDetails: boolean): JSONSchema7 {
  return {
    type: "object",
    properties: {
      content: { type: "array", items: { anyOf: [TEXT_PART, IMAGE_PART] } },
      isError: { type: "boolean" },
      errorCode: {
        type: "string",
        description:
          "set when isError: the failure's code (a core code or one the tool declares in its errorCodes)",
      },
      terminate: { type: "boolean" },
      ...(withDetails ? { details: { description: "structured facts of the call for UIs and logs" } } : {}),
    },
    required: ["content", "isError"],
  };
}
