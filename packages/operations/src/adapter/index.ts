/**
 * `@tackle/operations/adapter`: the mechanics every `Operations` adapter shares, so a new
 * adapter writes only its transport: the exec defaults, the running-commands registry its
 * `dispose()` ends, the bounded wait after an abort, the lazy connection every call waits for,
 * and the factory option check.
 */

export { checkAdapterOptions, EXEC_OPTION_SPEC } from "./adapter-options.js";
export type { FileMethods } from "./connect-once.js";
export { ConnectOnce, filesAfterConnect } from "./connect-once.js";
export { ABORT_SETTLE_MS, EXEC_DEFAULTS, MAX_DRAIN_AFTER_EXIT_MS, settleWithin } from "./exec-defaults.js";
export type { OptionKind, OptionRule, OptionSpec } from "./options-check.js";
export { checkOptions, quoteValue } from "./options-check.js";
export { RunningCommands } from "./running-commands.js";
