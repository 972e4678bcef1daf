export type { ArtifactOperations, ArtifactStoreOptions } from "./context/artifacts.js";
export { ARTIFACT_RETENTION_MS, createArtifactStore } from "./context/artifacts.js";
export type { ToolContextOptions } from "./context/create-tool-context.js";
export { createToolContext, getFileMutationQueue } from "./context/create-tool-context.js";
export type { DisposeToolContextOptions } from "./context/dispose-tool-context.js";
export { disposeToolContext } from "./context/dispose-tool-context.js";
export { createFileMutationQueue } from "./context/mutation-queue.js";
export { assertNotStale, createReadLedger, recordRead, sha256Hex } from "./context/read-ledger.js";
export type { Defaults } from "./defaults.js";
export { DEFAULTS, formatBytes } from "./defaults.js";
export type { FuzzyKind } from "./edit/normalize.js";
export type { EditOutcome, EditPlan, EditRequest, MatcherName } from "./edit/plan.js";
export { planEdits } from "./edit/plan.js";
export { repairEditArguments } from "./edit/repair-arguments.js";
export type {
  CreateToolsOptions,
  PerToolOptions,
  ToolDefinitionByName,
  ToolName,
  ToolOptionsByName,
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
  READ_ONLY_TOOL_NAMES,
} from "./factories.js";
export { findNearMisses, suggestSimilarPaths } from "./path/near-miss.js";
export { normalizeModelPath } from "./path/normalize.js";
export { resolveRealPath } from "./path/real-path.js";
export { recheckWriteTarget } from "./path/recheck.js";
export type { WorkspacePolicyOptions } from "./path/workspace-policy.js";
export { createWorkspacePolicy, resolveWorkspacePath } from "./path/workspace-policy.js";
export { comparePaths } from "./search/compare-paths.js";
export { compileGlob } from "./search/glob.js";
export type { PortableSearchOperations, PortableSearchOptions } from "./search/portable-search.js";
export { createPortableSearch } from "./search/portable-search.js";
export { OutputCapture } from "./shell/capture.js";
export type { ShellEnvOptions } from "./shell/env.js";
export { KEPT_VARIABLES, NON_INTERACTIVE_ENV, RUN_ID_VARIABLE, SECRET_NAME_PATTERN } from "./shell/env.js";
export type { EscapeHuntResult } from "./shell/escape.js";
export { huntEscapedProcesses } from "./shell/escape.js";
export type { JobOperations, JobRecord, JobRegistryOptions, JobStatus, JobTail } from "./shell/jobs.js";
export { createJobRegistry, JobRegistry, SHELL_JOBS_SERVICE } from "./shell/jobs.js";
export type {
  PipelineOperations,
  ShellPipelineOptions,
  ShellRunOutcome,
  ShellRunRequest,
  ToolShell,
} from "./shell/pipeline.js";
export { runShellCommand } from "./shell/pipeline.js";
export { evaluateCommandPolicy } from "./shell/policy/engine.js";
export type {
  PolicyConfig,
  PolicyDecision,
  PolicyHit,
  PolicyRuleId,
  PolicyScope,
  PolicyVerdict,
} from "./shell/policy/types.js";
export { DEFAULT_DECISIONS, DEFAULT_WRITABLE_PATHS } from "./shell/policy/types.js";
export { detectPrompt, NON_INTERACTIVE_HINT } from "./shell/prompt.js";
export { redactSecrets } from "./shell/redact.js";
export { existingShellJobs, getShellJobs } from "./shell/registry.js";
export { collapseCarriageReturns, markToolOutput, sanitizeOutput, stripControl } from "./shell/sanitize.js";
export type { ShellToolDetails, ShellToolOptions, ShellToolParams, ShellToolSchema } from "./shell/tool.js";
export type { DecodedText, TextEncodingName } from "./text/encoding.js";
export { decodeText, encodeText } from "./text/encoding.js";
export { formatNumberedLines, LINE_NUMBER_PREFIX } from "./text/line-numbers.js";
export type { ImageFormat, SniffResult } from "./text/sniff.js";
export { sniffFileType } from "./text/sniff.js";
export { toToolError } from "./tool-errors.js";
export type { BashToolOptions } from "./tools/bash.js";
export { createBashToolDefinition } from "./tools/bash.js";
export type { EditDetails, EditParams, EditToolOptions } from "./tools/edit.js";
export { createEditToolDefinition } from "./tools/edit.js";
export type { FindDetails, FindParams, FindToolOptions } from "./tools/find.js";
export { createFindToolDefinition } from "./tools/find.js";
export type { GrepDetails, GrepParams, GrepToolOptions } from "./tools/grep.js";
export { createGrepToolDefinition } from "./tools/grep.js";
export type { JobsDetails, JobsParams } from "./tools/jobs.js";
export { createJobsToolDefinition } from "./tools/jobs.js";
export type { LsDetails, LsEntry, LsParams } from "./tools/ls.js";
export { createLsToolDefinition } from "./tools/ls.js";
export type { PowershellInfo, PowershellToolOptions } from "./tools/powershell.js";
export { createPowershellToolDefinition, detectPowershell } from "./tools/powershell.js";
export type { ReadDetails, ReadParams, ReadToolOptions } from "./tools/read.js";
export { createReadToolDefinition, READ_IMAGE_MAX_BYTES } from "./tools/read.js";
export type { WriteDetails, WriteParams } from "./tools/write.js";
export { createWriteToolDefinition } from "./tools/write.js";
export type { LineTruncation, TruncatedBy, TruncateOptions, TruncationResult } from "./truncate.js";
export {
  sliceUtf8End,
  sliceUtf8Start,
  truncateHead,
  truncateLine,
  truncateTail,
  utf8ByteLength,
} from "./truncate.js";
