import { CoreV1Api, CustomObjectsApi, type KubeConfig, type V1Pod } from "@kubernetes/client-node";
import { apiFailure, type ClusterPlace, KubernetesOperationError, kubectl } from "./kube-error.js";
import type { ResolvedPod } from "./pod-client.js";
import { type PodSandboxFacts, podSandboxFacts } from "./pod-sandbox.js";

/**
 * What to run in: exactly one of a pod by name, the first running pod a label selector matches,
 * an agent-sandbox `Sandbox`, or a `SandboxClaim` (both resolved to their pod once ready).
 */
export type PodTarget =
  | { pod: string; selector?: never; sandbox?: never; sandboxClaim?: never }
  | { selector: string; pod?: never; sandbox?: never; sandboxClaim?: never }
  | { sandbox: string; pod?: never; selector?: never; sandboxClaim?: never }
  | { sandboxClaim: string; pod?: never; selector?: never; sandbox?: never };

/** The agent-sandbox API groups (kubernetes-sigs/agent-sandbox) and the versions tried, newest first. */
export const SANDBOX_API = {
  sandbox: { group: "agents.x-k8s.io", plural: "sandboxes" },
  claim: { group: "extensions.agents.x-k8s.io", plural: "sandboxclaims" },
  versions: ["v1beta1", "v1alpha1"],
  /** Set on a Sandbox that adopted a warm-pool pod: that pod's name (else the Sandbox's own). */
  podNameAnnotation: "agents.x-k8s.io/pod-name",
} as const;

/** The annotation kubectl reads for a pod's default container. */
const DEFAULT_CONTAINER_ANNOTATION = "kubectl.kubernetes.io/default-container";
/** Pause between two reads of a Sandbox or SandboxClaim that is not ready yet. */
const READY_POLL_MS = 250;

type Place = ClusterPlace & { server: string };

interface ApiError {
  code?: number;
  body?: unknown;
}

/** A custom object as read (the fields used here). */
interface SandboxObject {
  metadata?: { name?: string; annotations?: Record<string, string> };
  status?: {
    conditions?: { type?: string; status?: string; reason?: string; message?: string }[];
    sandbox?: { name?: string; Name?: string };
  };
}

/**
 * Resolves a {@link PodTarget} to one running container: reads the pod (and the sandbox
 * objects) through the API server with the client library, waits at most `readyTimeoutMs` for a
 * Sandbox or SandboxClaim to be ready, and throws typed errors naming the next kubectl step.
 */
export async function resolvePod(
  config: KubeConfig,
  place: Place,
  target: PodTarget,
  container: string | undefined,
  readyTimeoutMs: number,
  signal?: AbortSignal,
): Promise<ResolvedPod & { sandbox: PodSandboxFacts }> {
  const core = config.makeApiClient(CoreV1Api);
  const fail = (error: unknown, what: string, look: string) => {
    const e = error as ApiError;
    return apiFailure(
      { ...(typeof e?.code === "number" ? { status: e.code } : {}), body: e?.body, cause: error },
      place,
      what,
      look,
      "connect",
    );
  };
  if (target.selector !== undefined) {
    let pods: V1Pod[];
    try {
      pods = (await core.listNamespacedPod({ namespace: place.namespace, labelSelector: target.selector }))
        .items;
    } catch (error) {
      throw fail(error, `pods matching ${target.selector}`, `get pods -l ${target.selector}`);
    }
    const running = pods
      .filter((pod) => pod.status?.phase === "Running" && !pod.metadata?.deletionTimestamp)
      .sort((a, b) => (a.metadata?.name ?? "").localeCompare(b.metadata?.name ?? ""));
    const first = running[0];
    if (!first) {
      throw new KubernetesOperationError(
        "no_matching_pod",
        `No running pod matches ${target.selector} in namespace ${place.namespace} (context ${place.context}; ${pods.length} matched, none running). Look: ${kubectl(place, `get pods -l ${target.selector}`)}`,
        { place, operation: "connect" },
      );
    }
    return checkPod(first, place, container, `pods ${target.selector}`);
  }
  let podName: string;
  let described: string;
  if (target.pod !== undefined) {
    podName = target.pod;
    described = `pod ${target.pod}`;
  } else {
    const deadline = Date.now() + readyTimeoutMs;
    let sandboxName: string;
    if (target.sandboxClaim !== undefined) {
      const claim = await waitReady(
        config,
        place,
        "claim",
        target.sandboxClaim,
        deadline,
        readyTimeoutMs,
        signal,
      );
      const named = claim.status?.sandbox?.name ?? claim.status?.sandbox?.Name;
      if (!named) {
        throw new KubernetesOperationError(
          "sandbox_not_ready",
          `SandboxClaim ${target.sandboxClaim} is ready but names no Sandbox in its status. Look: ${kubectl(place, `get sandboxclaim ${target.sandboxClaim} -o yaml`)}`,
          { place, operation: "connect" },
        );
      }
      sandboxName = named;
      described = `sandboxclaim ${target.sandboxClaim}`;
    } else {
      sandboxName = target.sandbox as string;
      described = `sandbox ${sandboxName}`;
    }
    const sandbox = await waitReady(config, place, "sandbox", sandboxName, deadline, readyTimeoutMs, signal);
    podName = sandbox.metadata?.annotations?.[SANDBOX_API.podNameAnnotation] || sandboxName;
  }
  let pod: V1Pod;
  try {
    pod = await core.readNamespacedPod({ name: podName, namespace: place.namespace });
  } catch (error) {
    throw fail(error, `pod ${podName}`, `get pod ${podName}`);
  }
  return checkPod(pod, place, container, described);
}

/** The pod runs and has the container, running: else a typed error. */
function checkPod(
  pod: V1Pod,
  place: Place,
  wanted: string | undefined,
  described: string,
): ResolvedPod & { sandbox: PodSandboxFacts } {
  const name = pod.metadata?.name ?? "";
  const look = kubectl(place, `describe pod ${name}`);
  const phase = pod.status?.phase ?? "Unknown";
  if (phase !== "Running" || pod.metadata?.deletionTimestamp) {
    throw new KubernetesOperationError(
      "pod_not_running",
      `Pod ${name} in namespace ${place.namespace} is ${pod.metadata?.deletionTimestamp ? "being deleted" : phase}, not Running. Look: ${look}`,
      { place, operation: "connect" },
    );
  }
  const containers = (pod.spec?.containers ?? []).map((c) => c.name);
  const container = wanted ?? pod.metadata?.annotations?.[DEFAULT_CONTAINER_ANNOTATION] ?? containers[0];
  if (container === undefined || !containers.includes(container)) {
    throw new KubernetesOperationError(
      "container_not_found",
      `Pod ${name} has no container ${container ?? "(none)"} (it has: ${containers.join(", ") || "none"}). Look: ${look}`,
      { place, operation: "connect" },
    );
  }
  const state = pod.status?.containerStatuses?.find((s) => s.name === container)?.state;
  if (!state?.running) {
    const why =
      state?.waiting?.reason ??
      (state?.terminated ? `terminated (${state.terminated.reason ?? "exit"})` : "not started");
    throw new KubernetesOperationError(
      "container_not_found",
      `Container ${container} of pod ${name} is not running (${why}). Look: ${look}`,
      { place, operation: "connect" },
    );
  }
  return {
    namespace: place.namespace,
    pod: name,
    container,
    described,
    sandbox: podSandboxFacts(pod, container),
  };
}

/** Reads a Sandbox or SandboxClaim until its Ready condition is True, until `deadline`. */
async function waitReady(
  config: KubeConfig,
  place: Place,
  kind: "sandbox" | "claim",
  name: string,
  deadline: number,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<SandboxObject> {
  const api = config.makeApiClient(CustomObjectsApi);
  const { group, plural } = SANDBOX_API[kind];
  const noun = kind === "sandbox" ? "Sandbox" : "SandboxClaim";
  const resource = kind === "sandbox" ? "sandbox" : "sandboxclaim";
  let versions: readonly string[] = SANDBOX_API.versions;
  for (;;) {
    let object: SandboxObject | undefined;
    for (const version of versions) {
      try {
        object = (await api.getNamespacedCustomObject({
          group,
          version,
          namespace: place.namespace,
          plural,
          name,
        })) as SandboxObject;
        // Keep to the version the server serves.
        versions = [version];
        break;
      } catch (error) {
        const e = error as ApiError;
        // A version the server does not serve answers 404 with no object name in its details.
        const status = typeof e.body === "string" ? safeJson(e.body) : e.body;
        const aboutObject = (status as { details?: { name?: string } } | undefined)?.details?.name === name;
        if (e.code === 404 && !aboutObject && version !== versions[versions.length - 1]) continue;
        throw apiFailure(
          { ...(typeof e.code === "number" ? { status: e.code } : {}), body: e.body, cause: error },
          place,
          `${resource} ${name}`,
          `get ${resource} ${name}`,
          "connect",
        );
      }
    }
    const ready = object?.status?.conditions?.find((c) => c.type === "Ready");
    if (ready?.status === "True" && object) return object;
    if (Date.now() >= deadline || signal?.aborted) {
      const why = ready
        ? `${ready.reason ?? "not ready"}${ready.message ? `: ${ready.message}` : ""}`
        : "no Ready condition yet";
      throw new KubernetesOperationError(
        "sandbox_not_ready",
        `${noun} ${name} in namespace ${place.namespace} was not ready within ${Math.round(timeoutMs / 1000)} s (${why}). Look: ${kubectl(place, `get ${resource} ${name} -o yaml`)}`,
        { place, operation: "connect" },
      );
    }
    await new Promise((resolve) => setTimeout(resolve, READY_POLL_MS));
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
