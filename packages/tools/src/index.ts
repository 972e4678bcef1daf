/**
 * `@tackle/tools`: the coding-agent tools on any environment. Make a context on an adapter,
 * make tools on it, dispose it when the session ends. Building blocks for hosts and adapters are
 * on subpaths: `/local` (this machine as the default environment), `/context`, `/shell`,
 * `/search`, `/text`, `/patch` (the V4A patch format), `/testing`.
 */
export type { ToolContext, ToolContextOptions } from "./context/create-tool-context.js";
export { createToolContext } from "./context/create-tool-context.js";
export type { DisposeToolContextOptions } from "./context/dispose-tool-context.js";
export type { Defaults } from "./defaults.js";
export { DEFAULTS } from "./defaults.js";
export type {
  LanguageServerDiagnostics,
  LanguageServerDiagnosticsOptions,
  LanguageServerSpec,
} from "./diagnostics/language-server.js";
export { createLanguageServerDiagnostics } from "./diagnostics/language-server.js";
export { PYRIGHT_LANGUAGE_SERVER, TYPESCRIPT_LANGUAGE_SERVER } from "./diagnostics/servers.js";
export type {
  AvailableToolSet,
  CreateToolOptions,
  CreateToolsOptions,
  PerToolOptions,
  ShellToolName,
  ToolByName,
  ToolDefinitionByName,
  ToolName,
  ToolOptionsByName,
  ToolSet,
  ToolSetOptions,
  WithJobs,
} from "./factories.js";
export {
  ALL_TOOL_NAMES,
  CODING_TOOL_NAMES,
  createAllTools,
  createAvailableTools,
  createCodingTools,
  createReadOnlyTools,
  createTool,
  createToolDefinition,
  createTools,
  READ_ONLY_TOOL_NAMES,
} from "./factories.js";
export type { ApplyPatchDetails, PatchFileResult } from "./patch/apply.js";
export type { ApplyPatchParams, ApplyPatchToolOptions } from "./patch/tool.js";
export { createApplyPatchToolDefinition } from "./patch/tool.js";
export type { PolicyConfig, PolicyDecision, PolicyRuleId } from "./shell/policy-contract.js";
export type { ShellToolDetails, ShellToolOptions, ShellToolParams } from "./shell/tool.js";
export type { SyntaxCacheStats } from "./syntax/cache-control.js";
export { clearSyntaxCache, syntaxCacheStats } from "./syntax/cache-control.js";
export type { PatchErrorCode, TackleToolErrorCode, TackleToolOwnErrorCode } from "./tool-error-codes.js";
export { TACKLE_TOOL_ERROR_CODES } from "./tool-error-codes.js";
export { toToolError } from "./tool-errors.js";
export type { ToolEntry } from "./tool-registry.js";
export { isToolName, TOOLS, toolExample } from "./tool-registry.js";
export type { BashErrorCode } from "./tools/bash.js";
export type { EditDetails, EditErrorCode, EditParams, EditToolOptions } from "./tools/edit.js";
export type { FindDetails, FindParams, FindToolOptions } from "./tools/find.js";
export type { GrepDetails, GrepParams, GrepToolOptions } from "./tools/grep.js";
export type { JobsDetails, JobsParams } from "./tools/jobs.js";
export type { LsDetails, LsEntry, LsParams } from "./tools/ls.js";
export type { PowershellErrorCode } from "./tools/powershell.js";
export type { ReadDetails, ReadErrorCode, ReadParams, ReadToolOptions } from "./tools/read.js";
export type { WriteDetails, WriteErrorCode, WriteParams } from "./tools/write.js";
