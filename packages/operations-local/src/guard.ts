import { isAbsolute } from "node:path";
import { OperationError, raceAbort, throwIfAborted, toOperationError } from "@tackle/operations";

/**
 * Rejects a path the local filesystem must never see: one with a NUL byte (Node would throw a
 * TypeError with an `ERR_INVALID_ARG_VALUE` code, not an errno) or a relative one (the contract
 * says paths are absolute; resolving against the host's cwd would silently pick a directory).
 */
export function checkPath(path: string, operation: string): void {
  if (typeof path !== "string" || path.length === 0) {
    throw new OperationError("invalid_argument", `${operation}: path must be a non-empty string`, {
      operation,
    });
  }
  if (path.includes("\0")) {
    throw new OperationError("invalid_argument", `${operation}: path contains a NUL byte`, {
      operation,
      path: path.replaceAll("\0", "\\0"),
    });
  }
  if (!isAbsolute(path)) {
    throw new OperationError("invalid_argument", `${operation}: path must be absolute: ${path}`, {
      operation,
      path,
    });
  }
}

/**
 * Runs one filesystem call with the contract's guards: path checks, abort before the call, abort
 * while it runs, and errno mapped to an `OperationError`. By default the call is raced against
 * the signal, so the caller is released promptly even when the kernel call cannot be
 * interrupted. `race: false` is for a call that handles the signal itself and must finish its
 * own cleanup before it settles (writeFile removes its temp file first).
 */
export async function guarded<T>(
  operation: string,
  path: string,
  signal: AbortSignal | undefined,
  run: () => Promise<T>,
  { race = true }: { race?: boolean } = {},
): Promise<T> {
  checkPath(path, operation);
  throwIfAborted(signal, operation);
  try {
    return await (race ? raceAbort(run(), signal, operation) : run());
  } catch (error) {
    throw toOperationError(error, { operation, path });
  }
}
