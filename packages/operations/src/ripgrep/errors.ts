import { OperationError } from "../errors.js";

/** Characters of rg's stderr a transport keeps for {@link ripgrepExitError}'s message. */
export const RIPGREP_STDERR_LIMIT = 16 * 1024;

/** How an rg run ended, as its transport (a local process, an SSH channel, a docker exec) saw it. */
export interface RipgrepExit {
  /** The plan's kind (see `RipgrepPlan.kind`). */
  kind: "grep" | "files";
  /** Exit code; `null` when the transport could not observe it. */
  exitCode: number | null;
  /** What rg wrote to stderr (the transport may keep only the start). */
  stderr: string;
  /** Output records seen before the end. */
  records: number;
  operation: string;
  /** The request path, for the error. */
  path: string;
  /** The binary, named when it could not run. */
  rgPath: string;
}

/**
 * The error an rg run ended with, or `undefined` when it did not fail. Exit code 1 (nothing
 * found) is no error, nor is exit code 2 after output (rg reports unreadable files that way and
 * goes on). Exit code 2 with no output means rg refused the request; rg says why only as text on
 * stderr, so this is the one place that reads rg's messages, and callers get a code (the message
 * itself is kept for the user): a bad pattern or glob is `invalid_argument`, an unreadable path
 * `permission_denied`. For grep, only a refused pattern or glob fails: a search whose only
 * matches sat in unreadable files prints nothing and exits 2 too, and that is an empty result
 * (the start path itself is checked by every adapter before rg runs). Exit codes 126 and 127
 * come from a shell that could not run the binary: `not_supported`.
 */
export function ripgrepExitError(exit: RipgrepExit): OperationError | undefined {
  const { exitCode, operation, path } = exit;
  if (exitCode === 126 || exitCode === 127) {
    return new OperationError("not_supported", `${operation}: ripgrep cannot run here (${exit.rgPath})`, {
      operation,
      path,
    });
  }
  if (exitCode !== 2 || exit.records > 0) return undefined;
  const message = exit.stderr.trim().replace(/^rg: /, "");
  if (/regex parse error|error parsing glob|the literal .* is not allowed|invalid/i.test(message)) {
    return new OperationError("invalid_argument", `${operation}: ${message}`, { operation, path });
  }
  if (exit.kind === "grep") return undefined;
  if (/permission denied/i.test(message)) {
    return new OperationError("permission_denied", `${operation}: ${message}`, { operation, path });
  }
  return new OperationError("unknown", `${operation}: ripgrep failed: ${message || "exit code 2"}`, {
    operation,
    path,
  });
}
