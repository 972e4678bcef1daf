import type { V1Pod } from "@kubernetes/client-node";
import { OperationError, type SandboxOptions, type SandboxReport } from "@tackle/operations";
import { within } from "@tackle/operations/adapter";

/**
 * What a pod's spec says its container enforces, read when the adapter connects. In a pod the
 * pod is the sandbox: the adapter adds nothing inside it, it checks that the container gives what
 * a sandboxed call asks for.
 */
export interface PodSandboxFacts {
  /** `securityContext.readOnlyRootFilesystem` of the container. */
  readOnlyRoot: boolean;
  /** Mount paths of the container's volumes that are not read-only. */
  writable: string[];
  /** A seccomp profile applies (`RuntimeDefault` or `Localhost`, on the container or the pod). */
  seccomp: boolean;
}

/** Reads the sandbox facts of `container` from the pod's spec. */
export function podSandboxFacts(pod: V1Pod, container: string): PodSandboxFacts {
  const spec = pod.spec?.containers?.find((c) => c.name === container);
  const profile =
    spec?.securityContext?.seccompProfile?.type ?? pod.spec?.securityContext?.seccompProfile?.type;
  return {
    readOnlyRoot: spec?.securityContext?.readOnlyRootFilesystem === true,
    writable: (spec?.volumeMounts ?? []).filter((mount) => !mount.readOnly).map((mount) => mount.mountPath),
    seccomp: profile === "RuntimeDefault" || profile === "Localhost",
  };
}

function refuse(pod: string, message: string): OperationError {
  return new OperationError("not_supported", `exec: sandbox unavailable in ${pod}: ${message}`, {
    operation: "exec",
  });
}

/**
 * The report of a sandboxed call in `pod`, or `not_supported` naming what it does not give and
 * how to get it. A pod's network is the cluster's: the NetworkPolicies that would restrict it are
 * not the pod's to show, so network `"off"` and allow lists are refused (network `"on"` promises
 * nothing about the network). The container's root file system must be read-only, and every
 * `writable` path must lie on a writable volume mount. `readable` and `deny` need nothing: the
 * container sees only what its volumes mount.
 */
export function podSandboxReport(
  options: SandboxOptions,
  pod: string,
  facts: PodSandboxFacts,
): SandboxReport {
  const network = options.network ?? "off";
  if (network !== "on")
    throw refuse(
      pod,
      `the adapter cannot check the cluster's NetworkPolicies, so it cannot promise network ${typeof network === "object" ? "allow list" : '"off"'}. Restrict the pod's egress with a NetworkPolicy and ask for network "on" (the sandbox then promises nothing about the network), or run without the sandbox (sandbox: false, tackle --no-sandbox).`,
    );
  if (!facts.readOnlyRoot)
    throw refuse(
      pod,
      "its container's root file system is writable, and the sandbox lets commands write only to the workspace. Set securityContext.readOnlyRootFilesystem: true with writable volumes (emptyDir) for the workspace and /tmp.",
    );
  for (const path of options.writable ?? []) {
    if (!facts.writable.some((mount) => within(path, mount)))
      throw refuse(
        pod,
        `${path} is not on a writable volume mount (writable: ${facts.writable.join(", ") || "none"}). Mount a volume there.`,
      );
  }
  return { mechanism: "container", network: "on", writable: [...facts.writable], seccomp: facts.seccomp };
}
