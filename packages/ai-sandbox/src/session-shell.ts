/**
 * Scripts run through a sandbox session: `sh -c SCRIPT NAME ARGS...` as one command line (the
 * session takes a command string; every value is a quoted argument, never spliced into the
 * script), with their text output through `run`.
 */
import { OperationError, throwIfAborted } from "@tackle/operations";
import { shellQuote } from "@tackle/operations/container-scripts";
import type { SandboxSessionLike } from "./sandbox-types.js";

/** The command line that runs `script` in `sh` with `args` as `$1`, `$2`, ... */
export function scriptLine(script: string, name: string, args: readonly string[]): string {
  return ["sh", "-c", script, name, ...args].map(shellQuote).join(" ");
}

/** What a script run through `run` printed, and its exit code. */
export interface ScriptResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** Runs scripts on one session. */
export class SessionShell {
  constructor(readonly session: SandboxSessionLike) {}

  /** Runs `script` to its end; an abort rejects with `aborted`, a session failure with `unknown`. */
  async run(
    script: string,
    args: readonly string[],
    operation: string,
    signal: AbortSignal | undefined,
    path?: string,
  ): Promise<ScriptResult> {
    throwIfAborted(signal, operation);
    try {
      return await this.session.run({
        command: scriptLine(script, operation, args),
        ...(signal ? { abortSignal: signal } : {}),
      });
    } catch (error) {
      throw sessionFailure(error, operation, signal, path);
    }
  }
}

/** An error of the session as an `OperationError`: `aborted` after an abort, else kept or `unknown`. */
export function sessionFailure(
  error: unknown,
  operation: string,
  signal: AbortSignal | undefined,
  path?: string,
): OperationError {
  if (error instanceof OperationError) return error;
  const context = { operation, cause: error, ...(path === undefined ? {} : { path }) };
  if (signal?.aborted) return new OperationError("aborted", `${operation}: aborted`, context);
  const message = error instanceof Error ? error.message : String(error);
  return new OperationError("unknown", `${operation}: the sandbox session failed: ${message}`, context);
}
