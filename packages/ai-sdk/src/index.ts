export type { AiSdkModel, AiSdkModelOptions } from "./ai-sdk-model.js";
export { aiSdkModel } from "./ai-sdk-model.js";
export type { AnthropicImageMediaType, AnthropicTool, AnthropicToolResultBlock } from "./anthropic-tools.js";
export { toAnthropicToolResult, toAnthropicTools } from "./anthropic-tools.js";
export { IMAGES_FOLLOW_TEXT } from "./images-follow.js";
export type { ModelMessagesOptions } from "./model-messages.js";
export { MISSING_RESULT_TEXT, toModelMessages } from "./model-messages.js";
export type {
  OpenAIChatTool,
  OpenAIChatToolResultMessage,
  OpenAIFunctionCallOutput,
  OpenAIResponsesTool,
  OpenAIToolsOptions,
} from "./openai-tools.js";
export {
  toOpenAIFunctionCallOutput,
  toOpenAIResponsesTools,
  toOpenAIToolMessages,
  toOpenAITools,
} from "./openai-tools.js";
export { UnsupportedModelError } from "./provider-model.js";
export type { DetailsOption, SdkToolOutput } from "./sdk-output.js";
export type { AISDKToolsOptions, ToolUpdate } from "./sdk-tools.js";
export { toAISDKTools } from "./sdk-tools.js";
export type { ProviderOptions, ToolResultOutput } from "./sdk-types.js";
export { StrictSchemaError, toStrictJsonSchema } from "./strict-schema.js";
export type { ApprovalQuestion } from "./tool-approval.js";
export { toolApprovalFor } from "./tool-approval.js";
export type { ContextToolSet, ToolContext, ToolsForContext } from "./tool-context.js";
export { toolsContextFor } from "./tool-context.js";
export { toToolResultOutput } from "./tool-output.js";
export type { ToolList, ToolSchemaSource } from "./tool-schemas.js";
export type { UIMessageChunksOptions } from "./ui-message-chunks.js";
export { createUIMessageChunks } from "./ui-message-chunks.js";
