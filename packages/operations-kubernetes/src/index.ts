export { type KubernetesConnection, type LoadedConfig, loadKubeConfig } from "./kube-config.js";
export {
  type ClusterPlace,
  type KubernetesFailureReason,
  KubernetesOperationError,
} from "./kube-error.js";
export {
  createKubernetesOperations,
  DEFAULT_READY_TIMEOUT_MS,
  type KubernetesOperations,
  type KubernetesOperationsOptions,
} from "./kubernetes-operations.js";
export type { ResolvedPod } from "./pod-client.js";
export { EXEC_PROTOCOLS } from "./pod-exec.js";
export { type PodTarget, SANDBOX_API } from "./pod-target.js";
