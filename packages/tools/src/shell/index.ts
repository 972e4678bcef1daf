/**
 * `@tackle/tools/shell`: the pipeline under bash and powershell, for hosts that run commands
 * their own way: `runShellCommand` (artifacts, sanitised tail, prompt detection, cleanup), the
 * background job registry, the command policy (loaded from `@tackle/shell-policy` on first use;
 * its constants such as `DEFAULT_DECISIONS` are imported from there), and the pwsh probe.
 */
export type { PowershellInfo } from "../tools/powershell.js";
export { detectPowershell } from "../tools/powershell.js";
export type { ShellEnvOptions } from "./env.js";
export { NON_INTERACTIVE_ENV } from "./env.js";
export type { JobOperations, JobRecord, JobRegistryOptions, JobStatus, JobTail } from "./jobs.js";
export { createJobRegistry, JobRegistry } from "./jobs.js";
export type {
  PipelineOperations,
  ShellPipelineOptions,
  ShellRunOutcome,
  ShellRunRequest,
  ToolShell,
} from "./pipeline.js";
export { runShellCommand } from "./pipeline.js";
export type {
  InputReader,
  PolicyConfig,
  PolicyDecision,
  PolicyHit,
  PolicyRuleId,
  PolicyScope,
  PolicyVerdict,
} from "./policy-contract.js";
export { evaluateCommandPolicy, ShellPolicyMissingError } from "./policy-loader.js";
export { detectPrompt, NON_INTERACTIVE_HINT } from "./prompt.js";
export { getShellJobs, SHELL_JOBS } from "./registry.js";
export type {
  ShellToolDetails,
  ShellToolOptions,
  ShellToolParams,
  ShellToolSchema,
} from "./tool-contract.js";
