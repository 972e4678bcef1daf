import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { KubeConfig } from "@kubernetes/client-node";
import { type ClusterPlace, KubernetesOperationError } from "./kube-error.js";

/** Where the in-cluster service account's token is mounted. */
const SERVICE_ACCOUNT_TOKEN = "/var/run/secrets/kubernetes.io/serviceaccount/token";

/** How to reach the cluster. */
export interface KubernetesConnection {
  /**
   * A loaded `KubeConfig`, or the path of a kubeconfig file. Default: what kubectl uses,
   * `KUBECONFIG` (its files merged), else `~/.kube/config`, else the in-cluster service account.
   */
  kubeconfig?: KubeConfig | string;
  /** The kubeconfig context (default: its current context). */
  context?: string;
}

/** A loaded configuration and where it points. */
export interface LoadedConfig {
  config: KubeConfig;
  place: ClusterPlace & { server: string };
}

/**
 * Loads credentials the way kubectl finds them and picks the context and namespace: `namespace`
 * if given, else the context's, else `default`. Throws a `config` {@link KubernetesOperationError}
 * that says what was looked at when there is nothing usable.
 */
export function loadKubeConfig(
  connection: KubernetesConnection,
  namespace: string | undefined,
): LoadedConfig {
  let config: KubeConfig;
  if (connection.kubeconfig instanceof KubeConfig) config = connection.kubeconfig;
  else {
    config = new KubeConfig();
    const file = connection.kubeconfig;
    const home = join(homedir(), ".kube", "config");
    try {
      if (file !== undefined) config.loadFromFile(file);
      else if (process.env.KUBECONFIG || existsSync(home) || existsSync(SERVICE_ACCOUNT_TOKEN))
        config.loadFromDefault();
      else {
        throw new KubernetesOperationError(
          "config",
          `No Kubernetes credentials found: KUBECONFIG is not set, ${home} does not exist and this is not a pod with a service account. Point KUBECONFIG at a kubeconfig file (kubectl config view shows the one kubectl uses).`,
          { operation: "connect" },
        );
      }
    } catch (error) {
      if (error instanceof KubernetesOperationError) throw error;
      throw new KubernetesOperationError(
        "config",
        `Cannot load the kubeconfig ${file ?? process.env.KUBECONFIG ?? home}: ${error instanceof Error ? error.message : String(error)}`,
        { operation: "connect", cause: error },
      );
    }
  }
  if (connection.context !== undefined) {
    if (!config.getContextObject(connection.context)) {
      const known = config.getContexts().map((c) => c.name);
      throw new KubernetesOperationError(
        "config",
        `The kubeconfig has no context ${connection.context} (it has: ${known.join(", ") || "none"}). List them: kubectl config get-contexts`,
        { operation: "connect" },
      );
    }
    config.setCurrentContext(connection.context);
  }
  const context = config.getCurrentContext();
  const cluster = config.getCurrentCluster();
  if (!cluster) {
    throw new KubernetesOperationError(
      "config",
      `The kubeconfig's context ${context || "(none)"} names no cluster. Choose one: kubectl config use-context NAME`,
      { operation: "connect" },
    );
  }
  const contextNamespace = config.getContextObject(context)?.namespace;
  return {
    config,
    place: { context, namespace: namespace ?? contextNamespace ?? "default", server: cluster.server },
  };
}
