import type { EnvSpec } from "./env-url.js";
import type { RemoteEnvironment } from "./environment-options.js";
import { importAdapter } from "./import-adapter.js";
import { UsageError } from "./usage-error.js";

type KubernetesModule = typeof import("@tackle/operations-kubernetes");
type KubernetesSpec = Extract<EnvSpec, { kind: "k8s" }>;

/** The Node the adapter's Kubernetes client loads on (its undici needs it). */
const NODE_FLOOR = [22, 19] as const;

/** What `k8s://` parts name, once the kubeconfig's contexts are known. */
export interface KubernetesTarget {
  context?: string;
  namespace: string;
  pod: string;
  container?: string;
}

/**
 * Reads `[context/]namespace/pod[/container]`: four parts have a context, two do not; three are
 * `context/namespace/pod` when `contexts` has the first part, else `namespace/pod/container`.
 */
export function kubernetesTarget(parts: string[], contexts: readonly string[]): KubernetesTarget {
  const [a = "", b = "", c, d] = parts;
  if (parts.length === 4) return { context: a, namespace: b, pod: c as string, container: d as string };
  if (parts.length === 3) {
    return contexts.includes(a)
      ? { context: a, namespace: b, pod: c as string }
      : { namespace: a, pod: b, container: c as string };
  }
  return { namespace: a, pod: b };
}

/** Opens `k8s://[context/]namespace/pod[/container]` with the credentials kubectl would use. */
export async function openKubernetesEnvironment(spec: KubernetesSpec): Promise<RemoteEnvironment> {
  const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
  if (major < NODE_FLOOR[0] || (major === NODE_FLOOR[0] && minor < NODE_FLOOR[1])) {
    throw new UsageError(
      `The k8s environment needs Node ${NODE_FLOOR.join(".")} or newer (its Kubernetes client does); this is Node ${process.versions.node}. Run tackle with a newer Node.`,
    );
  }
  const k8s = await importAdapter<KubernetesModule>("@tackle/operations-kubernetes", "k8s");
  const contexts = k8s
    .loadKubeConfig({}, undefined)
    .config.getContexts()
    .map((context) => context.name);
  const target = kubernetesTarget(spec.parts, contexts);
  const operations = k8s.createKubernetesOperations({
    pod: target.pod,
    namespace: target.namespace,
    ...(target.context !== undefined ? { context: target.context } : {}),
    ...(target.container !== undefined ? { container: target.container } : {}),
  });
  // Connect now: a missing pod or wrong credentials fail here with the kubectl step to take.
  try {
    await operations.connect();
  } catch (error) {
    await operations.dispose();
    throw error;
  }
  return { operations, base: operations.homeDir ?? "/", dispose: () => operations.dispose() };
}
