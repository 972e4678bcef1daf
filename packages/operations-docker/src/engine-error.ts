import { OperationError, type OperationErrorCode } from "@tackle/operations";

/** Why the engine or the container could not serve a call. */
export type DockerFailureReason =
  /** The socket or host does not answer (no engine, wrong path, engine stopped, SSH link down). */
  | "engine_unreachable"
  /** The host user may not talk to the engine (socket permissions, TLS refused). */
  | "engine_permission_denied"
  /** DOCKER_HOST, DOCKER_CONTEXT or the `docker` option names something unusable (malformed URL, missing context or certificate files). */
  | "engine_config"
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
  engine_config: "invalid_argument",
  container_not_found: "not_found",
  container_not_running: "connection_lost",
  image_not_found: "not_found",
  user_not_found: "invalid_argument",
  engine_error: "unknown",
};

/** The engine a failure was about: its URL and where that choice came from (see `EngineEndpoint`). */
export interface EngineDescription {
  url: string;
  source: string;
}

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
  /** The engine the call went to, when known. */
  readonly endpoint: EngineDescription | undefined;
  /** The container the call was about, when there was one. */
  readonly container: string | undefined;
  /** The socket error (`ECONNREFUSED`, `ENOENT`, ...) when the engine could not be reached. */
  readonly errno: string | undefined;

  constructor(
    reason: DockerFailureReason,
    message: string,
    options: {
      cause?: unknown;
      operation?: string | undefined;
      path?: string | undefined;
      statusCode?: number | undefined;
      endpoint?: EngineDescription;
      container?: string;
      errno?: string;
    } = {},
  ) {
    super(CODE_FOR_REASON[reason], message, options);
    this.reason = reason;
    this.statusCode = options.statusCode;
    this.endpoint = options.endpoint;
    this.container = options.container;
    this.errno = options.errno;
  }
}

interface EngineReply {
  statusCode?: number;
  code?: string;
  reason?: string;
  json?: { message?: string } | null;
  message?: string;
}

/** "the default socket", "from DOCKER_HOST", ... for messages. */
export function describeSource(source: string): string {
  return source === "default" ? "the default socket" : `from ${source}`;
}

/** Socket errors that mean nothing answers at the endpoint. */
const UNREACHABLE = new Set([
  "ECONNREFUSED",
  "ENOENT",
  "ECONNRESET",
  "EPIPE",
  "EHOSTUNREACH",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/** The error for an engine that does not answer, naming it and how to choose another. */
export function engineUnreachable(
  endpoint: EngineDescription,
  detail: string,
  options: {
    cause?: unknown;
    errno?: string;
    operation?: string | undefined;
    path?: string | undefined;
    container?: string;
  } = {},
): DockerOperationError {
  return new DockerOperationError(
    "engine_unreachable",
    `Docker engine unreachable at ${endpoint.url} (${describeSource(endpoint.source)}): ${detail}. Start the engine, or choose another with DOCKER_HOST or DOCKER_CONTEXT (or the docker option).`,
    { ...options, endpoint },
  );
}

/**
 * Classifies an error from dockerode / the engine by its HTTP status and socket errno (never by
 * the reply text, except to tell "no such user" apart: the engine gives it no own status).
 */
export function engineError(
  error: unknown,
  context: { container: string; endpoint: EngineDescription; operation?: string; path?: string },
): OperationError {
  if (error instanceof OperationError) return error;
  const reply = (error ?? {}) as EngineReply;
  const detail = reply.json?.message ?? reply.message ?? String(error);
  const base = {
    cause: error,
    operation: context.operation,
    path: context.path,
    statusCode: reply.statusCode,
    endpoint: context.endpoint,
    container: context.container,
  };
  if (reply.code !== undefined && UNREACHABLE.has(reply.code)) {
    return engineUnreachable(context.endpoint, reply.code, { ...base, errno: reply.code });
  }
  if (reply.code === "EACCES" || reply.code === "EPERM") {
    return new DockerOperationError(
      "engine_permission_denied",
      `No permission to use the Docker engine at ${context.endpoint.url}. Join the docker group or use another socket.`,
      { ...base, errno: reply.code },
    );
  }
  if (reply.statusCode === 404) {
    return new DockerOperationError(
      "container_not_found",
      `No such container: ${context.container} (engine at ${context.endpoint.url}). List the containers with docker ps -a and use one of their names or ids.`,
      base,
    );
  }
  if (reply.statusCode === 409) {
    return new DockerOperationError(
      "container_not_running",
      `Container ${context.container} is not running (stopped or paused). Start it (docker start ${context.container}) or unpause it (docker unpause ${context.container}), then retry.`,
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
