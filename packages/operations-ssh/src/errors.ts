import { OperationError, type OperationErrorCode } from "@tackle/operations";
import { type HostKeyProblem, type HostKeyWording, hostKeyMessage } from "./host-key.js";

/** Why a connection could not be made or was lost. */
export type SshFailureReason =
  /** The server's host key is not trusted yet (see the message for how to trust it). */
  | "host_key_unknown"
  /** The server's host key differs from the trusted one: possibly an impostor. */
  | "host_key_changed"
  /** The server refused every offered credential (wrong key, user, or no key at all). */
  | "auth_failed"
  /** The private key is encrypted and no passphrase was given. */
  | "key_encrypted"
  /** The private key cannot be used: the passphrase does not decrypt it, or it is not a key. */
  | "key_invalid"
  /** Nothing listens on the host's port (TCP connection refused). */
  | "connect_refused"
  /** The host name does not resolve (DNS lookup failed). */
  | "host_not_found"
  /** TCP or SSH handshake failed otherwise (host unreachable, protocol error). */
  | "connect_failed"
  /** No handshake within `readyTimeoutMs`. */
  | "connect_timeout"
  /** An established connection dropped (server gone, network, keepalive timeout). */
  | "connection_lost";

/** Where a connection was going, for messages and for hosts that word their own. */
export interface SshEndpoint {
  host: string;
  port: number;
  username: string;
}

/**
 * An {@link OperationError} about the SSH connection itself. `code` is the stable contract code
 * (`permission_denied` for trust and auth problems, `invalid_argument` for an unusable key,
 * `connection_lost` or `timeout` for the network); `reason` says exactly which, so a host can
 * offer "trust this host?" or word its own next step without parsing text.
 */
export class SshConnectionError extends OperationError {
  /** What went wrong with the connection. */
  readonly reason: SshFailureReason;
  /** The refused host key, for `host_key_unknown` and `host_key_changed`. */
  readonly hostKey: HostKeyProblem | undefined;
  /** Host, port and user of the connection, when it was being made. */
  readonly endpoint: SshEndpoint | undefined;
  /** The handshake limit that ran out, for `connect_timeout`. */
  readonly timeoutMs: number | undefined;

  constructor(
    reason: SshFailureReason,
    message: string,
    options: { cause?: unknown; hostKey?: HostKeyProblem; endpoint?: SshEndpoint; timeoutMs?: number } = {},
  ) {
    super(codeOf(reason), message, options.cause === undefined ? {} : { cause: options.cause });
    this.reason = reason;
    this.hostKey = options.hostKey;
    this.endpoint = options.endpoint;
    this.timeoutMs = options.timeoutMs;
  }
}

function codeOf(reason: SshFailureReason): OperationErrorCode {
  switch (reason) {
    case "host_key_unknown":
    case "host_key_changed":
    case "auth_failed":
      return "permission_denied";
    case "key_encrypted":
    case "key_invalid":
      return "invalid_argument";
    case "connect_timeout":
      return "timeout";
    default:
      return "connection_lost";
  }
}

/** The error for a refused host key, with the steps to trust it. */
export function hostKeyError(
  problem: HostKeyProblem,
  endpoint?: SshEndpoint,
  wording?: HostKeyWording,
): SshConnectionError {
  return new SshConnectionError(
    problem.kind === "changed" ? "host_key_changed" : "host_key_unknown",
    hostKeyMessage(problem, wording),
    { hostKey: problem, ...(endpoint ? { endpoint } : {}) },
  );
}

/** True when `error` is an {@link SshConnectionError}, optionally with one of the given reasons. */
export function isSshConnectionError(
  error: unknown,
  ...reasons: SshFailureReason[]
): error is SshConnectionError {
  return error instanceof SshConnectionError && (reasons.length === 0 || reasons.includes(error.reason));
}
