/**
 * The `Status` objects the API server answers with, built the way kube-apiserver builds them
 * (k8s.io/apimachinery/pkg/api/errors and the kubelet's remotecommand), for the local endpoint.
 */

/** A failed request's `Status` (`apiVersion: v1`, `kind: Status`, `status: Failure`). */
export function failureStatus(
  code: number,
  reason: string,
  message: string,
  details?: { name?: string; group?: string; kind?: string },
): object {
  return {
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Failure",
    message,
    reason,
    ...(details ? { details } : {}),
    code,
  };
}

/** 401, as the authentication filter answers a missing or wrong bearer token. */
export const UNAUTHORIZED = failureStatus(401, "Unauthorized", "Unauthorized");

/** 404 for a named object: `pods "web-0" not found`. */
export function notFound(resource: string, group: string, name: string): object {
  const qualified = group ? `${resource}.${group}` : resource;
  return failureStatus(404, "NotFound", `${qualified} "${name}" not found`, {
    name,
    ...(group ? { group } : {}),
    kind: resource,
  });
}

/**
 * The status-channel message that ends an exec (channel 3, JSON): `Success`, or a
 * `NonZeroExitCode` failure whose `ExitCode` cause carries the code (metav1.StatusCause's
 * `Type` field is `reason` in JSON).
 */
export function execStatus(exitCode: number): object {
  if (exitCode === 0) return { metadata: {}, status: "Success" };
  return {
    metadata: {},
    status: "Failure",
    message: `command terminated with non-zero exit code: exit status ${exitCode}`,
    reason: "NonZeroExitCode",
    details: { causes: [{ reason: "ExitCode", message: String(exitCode) }] },
  };
}
