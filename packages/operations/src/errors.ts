/**
 * Stable failure codes every adapter reports. Callers branch on `code`, never on message text.
 * `special_file`: the path is a FIFO, socket or device, which no file method opens (it could
 * block forever or act on hardware). `outside_root`: a write given `within` found its directory
 * outside that root (a link swapped in, a directory moved), and wrote nothing. `changed`: a write
 * given `expect` found the file no longer holding what the caller read (another writer changed,
 * created or removed it), and wrote nothing.
 */
export const OPERATION_ERROR_CODES = [
  "not_found",
  "permission_denied",
  "not_directory",
  "is_directory",
  "exists",
  "too_large",
  "aborted",
  "timeout",
  "connection_lost",
  "not_supported",
  "invalid_argument",
  "special_file",
  "outside_root",
  "changed",
  "unknown",
] as const;

/** One of {@link OPERATION_ERROR_CODES}. */
export type OperationErrorCode = (typeof OPERATION_ERROR_CODES)[number];

/** Options for {@link OperationError}. */
export interface OperationErrorOptions {
  /** The path the failing call was about, in the environment's own syntax. */
  path?: string;
  /** The underlying error (a Node `SystemError`, an SFTP status, an Engine API reply...). */
  cause?: unknown;
  /** Name of the `Operations` method that failed, e.g. `"readFile"`. */
  operation?: string;
}

/**
 * The one error type an `Operations` method throws.
 *
 * @example
 * ```ts
 * try { await ops.readFile("/nope") }
 * catch (error) { if (isOperationError(error, "not_found")) createIt(); else throw error; }
 * ```
 */
export class OperationError extends Error {
  override readonly name = "OperationError";
  /** Stable machine-readable code. */
  readonly code: OperationErrorCode;
  /** Path the call was about, when there was one. */
  readonly path: string | undefined;
  /** Method that failed, when known. */
  readonly operation: string | undefined;

  constructor(code: OperationErrorCode, message: string, options: OperationErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.path = options.path;
    this.operation = options.operation;
  }
}

/** True when `error` is an {@link OperationError}, optionally with one of the given codes. */
export function isOperationError(error: unknown, ...codes: OperationErrorCode[]): error is OperationError {
  if (!(error instanceof OperationError)) {
    // Another copy of this package (two versions in one tree) still counts: check the shape.
    if (
      typeof error !== "object" ||
      error === null ||
      (error as { name?: unknown }).name !== "OperationError" ||
      typeof (error as { code?: unknown }).code !== "string"
    ) {
      return false;
    }
  }
  return codes.length === 0 || codes.includes((error as OperationError).code);
}

const ERRNO_TO_CODE: Record<string, OperationErrorCode> = {
  ENOENT: "not_found",
  EACCES: "permission_denied",
  EPERM: "permission_denied",
  EROFS: "permission_denied",
  ENOTDIR: "not_directory",
  EISDIR: "is_directory",
  EEXIST: "exists",
  ENOTEMPTY: "exists",
  EFBIG: "too_large",
  ELOOP: "not_found",
  ETIMEDOUT: "timeout",
  ECONNRESET: "connection_lost",
  EPIPE: "connection_lost",
  ENOTSUP: "not_supported",
  EOPNOTSUPP: "not_supported",
  ENOSYS: "not_supported",
  EINVAL: "invalid_argument",
  // An argument list or environment too long for a new process (a huge pattern in rg's argv).
  E2BIG: "invalid_argument",
  ENAMETOOLONG: "invalid_argument",
  ABORT_ERR: "aborted",
};

/** Maps a POSIX errno name (`"ENOENT"`) to an {@link OperationErrorCode}; `"unknown"` otherwise. */
export function codeFromErrno(errno: string | undefined): OperationErrorCode {
  return (errno && ERRNO_TO_CODE[errno]) || "unknown";
}

const CODE_TEXT: Record<OperationErrorCode, string> = {
  not_found: "No such file or directory",
  permission_denied: "Permission denied",
  not_directory: "Not a directory",
  is_directory: "Is a directory",
  exists: "Already exists",
  too_large: "Too large",
  aborted: "Aborted",
  timeout: "Timed out",
  connection_lost: "Connection lost",
  not_supported: "Not supported",
  invalid_argument: "Invalid argument",
  special_file: "Not a regular file (a FIFO, socket or device)",
  outside_root: "Outside the root the write must stay in",
  changed: "The file changed since it was read",
  unknown: "Operation failed",
};

/**
 * Wraps any thrown value into an {@link OperationError}. An `OperationError` passes through;
 * a Node system error is mapped by its errno; anything else becomes `unknown` (kept as `cause`).
 */
export function toOperationError(error: unknown, context: OperationErrorOptions = {}): OperationError {
  if (isOperationError(error)) return error as OperationError;
  const errno = (error as { code?: unknown } | null)?.code;
  const name = (error as { name?: unknown } | null)?.name;
  const code: OperationErrorCode =
    name === "AbortError" ? "aborted" : codeFromErrno(typeof errno === "string" ? errno : undefined);
  const where = context.path ? `: ${context.path}` : "";
  const what = context.operation ? `${context.operation} failed` : CODE_TEXT[code];
  const detail = code === "unknown" && error instanceof Error ? ` (${error.message})` : "";
  return new OperationError(
    code,
    `${what}${code === "unknown" ? "" : ` (${CODE_TEXT[code]})`}${where}${detail}`,
    {
      ...context,
      cause: error,
    },
  );
}

/** Throws an `aborted` {@link OperationError} when the signal has fired. */
export function throwIfAborted(signal: AbortSignal | undefined, operation?: string): void {
  if (signal?.aborted) {
    throw new OperationError("aborted", operation ? `${operation} aborted` : "Aborted", {
      cause: signal.reason,
      ...(operation ? { operation } : {}),
    });
  }
}

/**
 * Resolves like `promise`, or rejects with an `aborted` {@link OperationError} as soon as
 * `signal` fires (the underlying work is not cancelled: use it where the caller must stop
 * waiting, e.g. an SFTP request that cannot be withdrawn).
 */
export function raceAbort<T>(
  promise: Promise<T>,
  signal: AbortSignal | undefined,
  operation: string,
): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      reject(new OperationError("aborted", `${operation} aborted`, { operation, cause: signal.reason }));
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/**
 * The `special_file` refusal every adapter gives for a FIFO, socket or device, in one wording:
 * such a path is never opened (a FIFO without a writer blocks the open forever).
 */
export function notRegularFileError(operation: string, path: string): OperationError {
  return new OperationError(
    "special_file",
    `${operation}: ${path} is a FIFO, socket or device, not a regular file; it was not opened`,
    { operation, path },
  );
}
