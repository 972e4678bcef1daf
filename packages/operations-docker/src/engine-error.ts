import { OperationError, type OperationErrorCode } from "@tackle/operations";

/** Why the engine or the container could not serve a call. */
export type DockerFailureReason =
  /** The socket or host does not answer (no engine, wrong path, engine stopped). */
  | "engine_unreachable"
  /** The host user may not talk to the engine (socket permissions, TLS refused). */
  | "engine_permission_denied"
  /** No container with that name or id. */
  | "container_not_found"
  /** The container exists but is not running (stopped, paused, restarting). */
  | "container_not_running"
  /** The image of a session container is not in the engine (images are never pulled). */
  | "image_not_found"
  /** The `user` option names a user the container does not know. */
  | "user_not_found"
  /** The engine answered with an error this adapter does not classify. */
  | "engine_error";

const CODE_FOR_REASON: Record<DockerFailureReason, OperationErrorCode> = {
  engine_unreachable: "connection_lost",
  engine_permission_denied: "permission_denied",
  container_not_found: "not_found",
  container_not_running: "connection_lost",
  image_not_found: "not_found",
  user_not_found: "invalid_argument",
  engine_error: "unknown",
};

/**
 * An {@link OperationError} about the engine or the container rather than a file: `code` stays
 * one of the contract's codes (so generic callers need nothing new) and `reason` says exactly
 * what went wrong for callers that know Docker.
 *
 * @example
 * ```ts
 * catch (error) { if (error instanceof DockerOperationError && error.reason === "container_not_running") restart(); }
 * ```
 */
export class DockerOperationError extends OperationError {
  readonly reason: DockerFailureReason;
  /** HTTP status of the engine reply, when there was one. */
  readonly statusCode: number | undefined;

  constructor(
    reason: DockerFailureReason,
    message: string,
    options: { cause?: unknown; operation?: string; path?: string; statusCode?: number } = {},
  ) {
    super(CODE_FOR_REASON[reason], message, options);
    this.reason = reason;
    this.statusCode = options.statusCode;
  }
}

interface EngineReply {
  statusCode?: number;
  code?: string;
  reason?: string;
  json?: { message?: string } | null;
  message?: string;
}

/**
 * Classifies an error from dockerode / the engine by its HTTP status and socket errno (never by
 * the reply text, except to tell "no such user" apart: the engine gives it no own status).
 */
export function engineError(
  error: unknown,
  context: { container: string; endpoint: string; operation?: string; path?: string },
): OperationError {
  if (error instanceof OperationError) return error;
  const reply = (error ?? {}) as EngineReply;
  const detail = reply.json?.message ?? reply.message ?? String(error);
  const base = {
    cause: error,
    operation: context.operation,
    path: context.path,
    statusCode: reply.statusCode,
  };
  switch (reply.code) {
    case "ECONNREFUSED":
    case "ENOENT":
    case "ECONNRESET":
    case "EPIPE":
    case "EHOSTUNREACH":
    case "ETIMEDOUT":
      return new DockerOperationError(
        "engine_unreachable",
        `Docker engine unreachable at ${context.endpoint} (${reply.code}). Start the engine or fix the socket path.`,
        base,
      );
    case "EACCES":
    case "EPERM":
      return new DockerOperationError(
        "engine_permission_denied",
        `No permission to use the Docker engine at ${context.endpoint}. Join the docker group or use another socket.`,
        base,
      );
  }
  if (reply.statusCode === 404) {
    return new DockerOperationError("container_not_found", `No such container: ${context.container}`, base);
  }
  if (reply.statusCode === 409) {
    return new DockerOperationError(
      "container_not_running",
      `Container ${context.container} is not running. Start it, then retry.`,
      base,
    );
  }
  if (reply.statusCode === 401 || reply.statusCode === 403) {
    return new DockerOperationError(
      "engine_permission_denied",
      `Docker engine refused the call: ${detail}`,
      base,
    );
  }
  if (/no matching entries in passwd|unable to find user/i.test(detail)) {
    return new DockerOperationError("user_not_found", `Container ${context.container}: ${detail}`, base);
  }
  return new DockerOperationError("engine_error", `Docker engine error: ${detail}`, base);
}
