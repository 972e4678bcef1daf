import { OperationError, type OperationErrorCode } from "@tackle/operations";

/**
 * Why the adapter could not reach or use its pod. Each reason maps to one `OperationError`
 * code, so tools branch on `code` and a host that knows Kubernetes on `reason`.
 */
export type KubernetesFailureReason =
  /** No usable kubeconfig or in-cluster service account, or an unknown context. */
  | "config"
  /** The API server is not reachable (refused, DNS, TLS). */
  | "api_unreachable"
  /** The API server refused the credentials (HTTP 401). */
  | "unauthorized"
  /** The credentials may not do this (HTTP 403, e.g. no `create` on `pods/exec`). */
  | "forbidden"
  /** No pod of that name in the namespace. */
  | "pod_not_found"
  /** A label selector matched no running pod. */
  | "no_matching_pod"
  /** The pod exists but does not run (pending, succeeded, failed, being deleted). */
  | "pod_not_running"
  /** The pod has no container of that name, or it is not running. */
  | "container_not_found"
  /** An agent-sandbox `Sandbox` or `SandboxClaim` that does not exist. */
  | "sandbox_not_found"
  /** The `Sandbox` or `SandboxClaim` did not become ready within the wait. */
  | "sandbox_not_ready"
  /** Any other refusal of the API server (its Status message is kept). */
  | "api_error";

const CODE_OF: Record<KubernetesFailureReason, OperationErrorCode> = {
  config: "invalid_argument",
  api_unreachable: "connection_lost",
  unauthorized: "permission_denied",
  forbidden: "permission_denied",
  pod_not_found: "not_found",
  no_matching_pod: "not_found",
  pod_not_running: "not_found",
  container_not_found: "not_found",
  sandbox_not_found: "not_found",
  sandbox_not_ready: "timeout",
  api_error: "unknown",
};

/** Where a failure happened: the kubeconfig context and the namespace, for messages. */
export interface ClusterPlace {
  context: string;
  namespace: string;
}

/**
 * An `OperationError` about the cluster, with a `reason` and the context and namespace it was
 * about. Its message names the next step (a `kubectl` command to look).
 *
 * @example
 * ```ts
 * try { await ops.connect() }
 * catch (error) { if (error instanceof KubernetesOperationError && error.reason === "pod_not_running") wait(); }
 * ```
 */
export class KubernetesOperationError extends OperationError {
  /** The failure class, finer than `code`. */
  readonly reason: KubernetesFailureReason;
  /** The kubeconfig context in use, when known. */
  readonly context: string | undefined;
  /** The namespace the call was about, when known. */
  readonly namespace: string | undefined;

  constructor(
    reason: KubernetesFailureReason,
    message: string,
    options: { place?: ClusterPlace; operation?: string; path?: string; cause?: unknown } = {},
  ) {
    super(CODE_OF[reason], message, {
      ...(options.operation ? { operation: options.operation } : {}),
      ...(options.path ? { path: options.path } : {}),
      ...(options.cause === undefined ? {} : { cause: options.cause }),
    });
    this.reason = reason;
    this.context = options.place?.context;
    this.namespace = options.place?.namespace;
  }
}

/** `kubectl --context C -n N ARGS`: the command a message tells the reader to run. */
export function kubectl(place: ClusterPlace, args: string): string {
  return `kubectl --context ${place.context} -n ${place.namespace} ${args}`;
}

/** The `Status` object the API server answers a refused request with (the fields used here). */
export interface ApiStatus {
  kind?: string;
  status?: string;
  message?: string;
  reason?: string;
  code?: number;
  details?: { name?: string; kind?: string; causes?: { reason?: string; message?: string }[] };
}

/** Parses a response body as a `Status`, or undefined when it is not one. */
export function parseStatus(body: unknown): ApiStatus | undefined {
  let value = body;
  if (typeof value === "string" || value instanceof Uint8Array) {
    try {
      value = JSON.parse(typeof value === "string" ? value : Buffer.from(value).toString("utf8"));
    } catch {
      return undefined;
    }
  }
  if (typeof value !== "object" || value === null) return undefined;
  return (value as ApiStatus).kind === "Status" || "status" in value ? (value as ApiStatus) : undefined;
}

/** Node's codes for a server that cannot be reached at all. */
const UNREACHABLE = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ETIMEDOUT",
  "ECONNRESET",
  "CERT_HAS_EXPIRED",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "ERR_TLS_CERT_ALTNAME_INVALID",
]);

/** The Node error code of `error` or of its causes (fetch wraps the socket's error). */
export function networkCode(error: unknown): string | undefined {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && UNREACHABLE.has(code)) return code;
    const nested = (e as { error?: unknown }).error;
    const nestedCode = (nested as { code?: unknown } | undefined)?.code;
    if (typeof nestedCode === "string" && UNREACHABLE.has(nestedCode)) return nestedCode;
  }
  return undefined;
}

/**
 * Maps a refusal of the API server (HTTP status and its `Status` body) or a network failure to
 * a typed error; `what` names the object (`pod web-0`), `look` the kubectl arguments that show it.
 */
export function apiFailure(
  error: { status?: number; body?: unknown; cause?: unknown },
  place: ClusterPlace & { server: string },
  what: string,
  look: string,
  operation: string,
): KubernetesOperationError {
  const status = parseStatus(error.body);
  const detail = status?.message ? `: ${status.message}` : "";
  const options = { place, operation, cause: error.cause ?? error };
  const net = error.status === undefined ? networkCode(error.cause ?? error) : undefined;
  if (error.status === undefined) {
    return new KubernetesOperationError(
      "api_unreachable",
      `The Kubernetes API server ${place.server} (context ${place.context}) is not reachable${net ? ` (${net})` : ""}. Check it: kubectl --context ${place.context} cluster-info`,
      options,
    );
  }
  if (error.status === 401) {
    return new KubernetesOperationError(
      "unauthorized",
      `The API server ${place.server} refused the credentials of context ${place.context} (401 Unauthorized). Refresh them, then check: kubectl --context ${place.context} auth whoami`,
      options,
    );
  }
  if (error.status === 403) {
    return new KubernetesOperationError(
      "forbidden",
      `Context ${place.context} may not ${operation === "exec" ? "exec into" : "read"} ${what} in namespace ${place.namespace}${detail}. Check: ${kubectl(place, `auth can-i ${operation === "exec" ? "create pods/exec" : "get pods"}`)}`,
      options,
    );
  }
  if (error.status === 404) {
    return new KubernetesOperationError(
      what.startsWith("pod ") ? "pod_not_found" : "sandbox_not_found",
      `No ${what} in namespace ${place.namespace} (context ${place.context})${detail}. Look: ${kubectl(place, look)}`,
      options,
    );
  }
  return new KubernetesOperationError(
    "api_error",
    `The API server refused ${operation} on ${what} in namespace ${place.namespace} (HTTP ${error.status})${detail}. Look: ${kubectl(place, look)}`,
    options,
  );
}
