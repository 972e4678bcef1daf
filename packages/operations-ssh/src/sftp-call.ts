import { isOperationError, OperationError, type OperationErrorCode, raceAbort } from "@tackle/operations";
import type { SFTPWrapper } from "ssh2";
import { raceLost, type Session, type SshConnection } from "./connection.js";
import { SshConnectionError } from "./errors.js";

/** SFTP v3 status codes (draft-ietf-secsh-filexfer-02), as ssh2 reports them in `error.code`. */
export const SFTP_STATUS = {
  EOF: 1,
  NO_SUCH_FILE: 2,
  PERMISSION_DENIED: 3,
  FAILURE: 4,
  BAD_MESSAGE: 5,
  NO_CONNECTION: 6,
  CONNECTION_LOST: 7,
  OP_UNSUPPORTED: 8,
} as const;

const STATUS_TO_CODE: Record<number, OperationErrorCode> = {
  [SFTP_STATUS.NO_SUCH_FILE]: "not_found",
  [SFTP_STATUS.PERMISSION_DENIED]: "permission_denied",
  [SFTP_STATUS.FAILURE]: "unknown",
  [SFTP_STATUS.BAD_MESSAGE]: "invalid_argument",
  [SFTP_STATUS.NO_CONNECTION]: "connection_lost",
  [SFTP_STATUS.CONNECTION_LOST]: "connection_lost",
  [SFTP_STATUS.OP_UNSUPPORTED]: "not_supported",
};

/** The SFTP status code of an ssh2 error, if it is one. */
export function sftpStatus(error: unknown): number | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "number" ? code : undefined;
}

/**
 * An SFTP failure as an {@link OperationError}. SFTP v3 folds many errnos into NO_SUCH_FILE
 * (ENOENT, ENOTDIR, ELOOP) and FAILURE (EEXIST, ENOTEMPTY, EISDIR...); callers that can tell them
 * apart with a follow-up stat pass `code` explicitly.
 */
export function sftpError(
  error: unknown,
  operation: string,
  path: string | undefined,
  code?: OperationErrorCode,
): OperationError {
  if (isOperationError(error)) return error as OperationError;
  const status = sftpStatus(error);
  const resolved = code ?? (status === undefined ? "unknown" : (STATUS_TO_CODE[status] ?? "unknown"));
  const text = error instanceof Error ? error.message : String(error);
  return new OperationError(resolved, `${operation} failed (${text})${path ? `: ${path}` : ""}`, {
    operation,
    cause: error,
    ...(path === undefined ? {} : { path }),
  });
}

/** Promise form of an ssh2 callback API. */
export function call<T = void>(
  start: (callback: (error: Error | null | undefined, value: T) => void) => void,
): Promise<T> {
  return new Promise((resolve, reject) => {
    start((error, value) => (error ? reject(error) : resolve(value)));
  });
}

/** Rejects a path the remote must never see: relative (no remote cwd is implied) or with a NUL. */
export function checkRemotePath(path: string, operation: string): void {
  if (typeof path !== "string" || !path.startsWith("/")) {
    throw new OperationError("invalid_argument", `${operation}: path must be absolute: ${String(path)}`, {
      operation,
      ...(typeof path === "string" ? { path } : {}),
    });
  }
  if (path.includes("\0")) {
    throw new OperationError("invalid_argument", `${operation}: path contains a NUL byte`, { operation });
  }
}

/**
 * Runs SFTP work with the contract's guards: path check, abort before and during the call,
 * `connection_lost` when the connection drops mid-call, and SFTP status mapped to a code.
 */
export async function withSftp<T>(
  connection: SshConnection,
  operation: string,
  path: string,
  signal: AbortSignal | undefined,
  run: (sftp: SFTPWrapper, session: Session) => Promise<T>,
  options: { settleOnAbort?: boolean } = {},
): Promise<T> {
  checkRemotePath(path, operation);
  const session = await connection.session(signal, operation);
  try {
    const work = session.sftp().then((sftp) => run(sftp, session));
    const guarded = raceLost(work, session, operation, path);
    // `settleOnAbort`: `run` watches the signal itself and must finish its cleanup (a write
    // removes its temp file) before the call rejects, so do not stop waiting at the abort.
    return await (options.settleOnAbort ? guarded : raceAbort(guarded, signal, operation));
  } catch (error) {
    if (session.isLost && !isOperationError(error, "aborted")) {
      throw new SshConnectionError("connection_lost", `${operation} failed: SSH connection lost: ${path}`, {
        cause: error,
      });
    }
    throw sftpError(error, operation, path);
  }
}
