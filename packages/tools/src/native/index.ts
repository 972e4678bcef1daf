/**
 * `@tackle/tools/native`: the tools frontier models are trained on, as their providers define
 * them (OpenAI `apply_patch` and `shell`, Anthropic `text_editor_20250728` and `bash_20250124`),
 * backed by a Tackle context: every guarantee of edit, write and bash holds in them.
 */
export type { AnthropicBashDetails, AnthropicBashInput } from "./anthropic-bash.js";
export { createAnthropicBashToolDefinition } from "./anthropic-bash.js";
export type {
  AnthropicTextEditorInput,
  AnthropicTextEditorOptions,
  TextEditorErrorCode,
} from "./anthropic-text-editor.js";
export { createAnthropicTextEditorToolDefinition, TEXT_EDITOR_TOOL_NAME } from "./anthropic-text-editor.js";
export { DIRECTORY_VIEW_DEPTH } from "./directory-view.js";
export type {
  AnthropicNativeTools,
  NativeToolHandlers,
  NativeToolsOptions,
  OpenAINativeTools,
  ProviderToolCallOptions,
} from "./handlers.js";
export {
  createAnthropicNativeTools,
  createNativeToolHandlers,
  createOpenAINativeTools,
  NativeToolCallError,
} from "./handlers.js";
export type {
  OpenAIApplyPatchInput,
  OpenAIApplyPatchOperation,
  OpenAIApplyPatchOutput,
} from "./openai-apply-patch.js";
export { createOpenAIApplyPatchToolDefinition, toOpenAIApplyPatchOutput } from "./openai-apply-patch.js";
export type {
  OpenAIShellCommandOutput,
  OpenAIShellDetails,
  OpenAIShellInput,
  OpenAIShellOutcome,
} from "./openai-shell.js";
export { createOpenAIShellToolDefinition, NOT_RUN_EXIT_CODE, toOpenAIShellOutput } from "./openai-shell.js";
export type {
  AnthropicNativeToolResult,
  AnthropicToolUseBlock,
  OpenAIApplyPatchCallItem,
  OpenAIApplyPatchCallOutputItem,
  OpenAIShellCallItem,
  OpenAIShellCallOutputItem,
} from "./vendor-items.js";
export {
  answerAnthropicToolUse,
  answerOpenAIResponsesItem,
  anthropicNativeToolDeclarations,
  OPENAI_NATIVE_TOOL_DECLARATIONS,
} from "./vendor-items.js";
