/**
 * `@tackle/operations/container-scripts`: the scripts an adapter runs inside a container (or
 * any POSIX environment it reaches only through "run this argv, stream its output"), shared by
 * the Docker and Kubernetes adapters so each keeps only its transport:
 *
 * - the file scripts and their exit-code protocol (`fileScript`, `SCRIPT_EXIT`, `SCRIPT_CODE`):
 *   a failure class is an exit code standing for an errno, decided by testing the path, never
 *   by reading a tool's message;
 * - the command wrapper (`WRAPPER_SCRIPT`: own process group, relays, output budget, marker
 *   sweep, optional watchdog) and its stop script (`STOP_SCRIPT`);
 * - the reader of the wrapper's stream (`WrapperOutput`) and the pieces that turn its report
 *   into an `ExecResult` cleanup, and `runWrappedCommand`: a whole `exec` on them, given how the
 *   adapter starts the wrapper and the stop script (`WrappedCommandTransport`);
 * - the file half of `Operations` on those scripts (`ScriptFiles`), given the adapter's transport;
 * - the resident shell (`ResidentShellPool`): a few long-lived `sh` processes that run short
 *   scripts on request over an open stream, so a file call costs no new exec;
 * - `shellText` and `shellQuote` for keeping shell text in TypeScript.
 */

export {
  COPY_WAIT_MS,
  STOP_SCRIPT,
  STREAM_DRAIN_MS,
  WATCHDOG_SCRIPT,
  WRAPPER_SCRIPT,
} from "./exec-scripts.js";
export type { FileScriptName } from "./file-scripts.js";
export { fileScript, SCRIPT_CODE, SCRIPT_EXIT } from "./file-scripts.js";
export type { ResidentRunResult, ResidentShellHost, ShellProcess } from "./resident-shell.js";
export { RESIDENT_SHELL_LOOP } from "./resident-shell.js";
export { MAX_RESIDENT_SHELLS, ResidentShellPool } from "./resident-shell-pool.js";
export type { ScriptCall, ScriptRunResult, ScriptTransport } from "./script-files.js";
export { checkScriptPath, ScriptFiles } from "./script-files.js";
export { shellQuote, shellText } from "./shell-text.js";
export type {
  WrappedCommandTransport,
  WrappedEnd,
  WrappedProcess,
  WrapperCall,
  WrapperTail,
} from "./wrapped-command.js";
export { envArguments, runWrappedCommand } from "./wrapped-command.js";
export type { EscapeSweep, WrapperEnd, WrapperFrame } from "./wrapper-output.js";
export { WrapperOutput } from "./wrapper-output.js";
export type { WrappedRun } from "./wrapper-result.js";
export {
  outputBudgetArguments,
  parseStopReport,
  setupFailure,
  signalName,
  withCopiesCut,
  withEscapeSweep,
  wrapperExecResult,
} from "./wrapper-result.js";
