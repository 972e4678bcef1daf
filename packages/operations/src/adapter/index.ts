/**
 * `@tackle/operations/adapter`: the mechanics every `Operations` adapter shares, so a new
 * adapter writes only its transport: the exec defaults, the running-commands registry its
 * `dispose()` ends, the bounded wait after an abort, the lazy connection every call waits for,
 * the factory option check, and the sandbox's mount plan, bubblewrap arguments and seccomp filter
 * (shared by the adapters that run bubblewrap: local and SSH).
 */

export { checkAdapterOptions, EXEC_OPTION_SPEC } from "./adapter-options.js";
export type { FileMethods } from "./connect-once.js";
export { ConnectOnce, filesAfterConnect } from "./connect-once.js";
export { ABORT_SETTLE_MS, EXEC_DEFAULTS, MAX_DRAIN_AFTER_EXIT_MS, settleWithin } from "./exec-defaults.js";
export type { OptionKind, OptionRule, OptionSpec } from "./options-check.js";
export { checkOptions, quoteValue } from "./options-check.js";
export { RunningCommands } from "./running-commands.js";
export type { BwrapArguments } from "./sandbox/bwrap-args.js";
export { bwrapArguments, FIRST_HIDDEN_FILE_FD, SECCOMP_FD } from "./sandbox/bwrap-args.js";
export type { SandboxBind, SandboxFileFacts, SandboxHide, SandboxProfile } from "./sandbox/profile.js";
export {
  effectiveSandbox,
  resolveSandboxProfile,
  SANDBOX_TEMP_DIRS,
  SANDBOX_TMPFS_DIRS,
  visibleInSandbox,
  within,
} from "./sandbox/profile.js";
export { deniedSyscallNames, seccompProgram } from "./sandbox/seccomp-filter.js";
