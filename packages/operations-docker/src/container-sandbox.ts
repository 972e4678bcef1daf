import { OperationError, type SandboxOptions, type SandboxReport } from "@tackle/operations";
import { within } from "@tackle/operations/adapter";

/**
 * What a container's own configuration already enforces, read from its inspect when the adapter
 * connects. In a container the container is the sandbox: the adapter adds nothing inside it
 * (bubblewrap would need user namespaces a container rarely has), it checks that the container
 * gives what a sandboxed call asks for.
 */
export interface ContainerSandboxFacts {
  /** `HostConfig.NetworkMode` (`"none"`: no network but its own loopback). */
  networkMode: string;
  /** `HostConfig.ReadonlyRootfs`. */
  readOnlyRoot: boolean;
  /** Container paths a command can write: writable mounts (binds, volumes) and tmpfs mounts. */
  writable: string[];
  /** Not `seccomp=unconfined`: the engine's default seccomp profile applies. */
  seccomp: boolean;
}

/** The subset of a container inspect the facts come from. */
export interface ContainerInspectForSandbox {
  HostConfig?: {
    NetworkMode?: string;
    ReadonlyRootfs?: boolean;
    SecurityOpt?: string[] | null;
    Tmpfs?: Record<string, string> | null;
  };
  Mounts?: { Destination?: string; RW?: boolean }[];
}

/** Reads the sandbox facts of a container from its inspect. */
export function containerSandboxFacts(info: ContainerInspectForSandbox): ContainerSandboxFacts {
  const host = info.HostConfig ?? {};
  const mounts = (info.Mounts ?? [])
    .filter((mount) => mount.RW && typeof mount.Destination === "string")
    .map((mount) => mount.Destination as string);
  return {
    networkMode: host.NetworkMode ?? "default",
    readOnlyRoot: host.ReadonlyRootfs === true,
    writable: [...new Set([...mounts, ...Object.keys(host.Tmpfs ?? {})])],
    seccomp: !(host.SecurityOpt ?? []).some((option) => /^seccomp[=:]unconfined$/.test(option)),
  };
}

function refuse(container: string, message: string): OperationError {
  return new OperationError(
    "not_supported",
    `exec: sandbox unavailable in container ${container}: ${message}`,
    {
      operation: "exec",
    },
  );
}

/**
 * The report of a sandboxed call in `container`, or `not_supported` naming what the container
 * does not give and how to get it. What is checked: network `"off"` needs network mode `none`;
 * an allow list is refused (no filtering proxy in containers); every `writable` path must lie on
 * a writable mount; the root file system must be read-only (else any path would be writable).
 * `readable` and `deny` need nothing: a container sees only the host paths mounted into it.
 */
export function containerSandboxReport(
  options: SandboxOptions,
  container: string,
  facts: ContainerSandboxFacts,
): SandboxReport {
  const network = options.network ?? "off";
  if (typeof network === "object")
    throw refuse(
      container,
      'a network allow list needs a filtering proxy, which the Docker adapter does not run. Ask for network "off" (a container with --network none) or "on".',
    );
  if (network === "off" && facts.networkMode !== "none")
    throw refuse(
      container,
      `it has network "${facts.networkMode}" and the sandbox asked for none. Create it with --network none (startSessionContainer does by default), or ask for network "on".`,
    );
  if (!facts.readOnlyRoot)
    throw refuse(
      container,
      "its root file system is writable, and the sandbox lets commands write only to the workspace. Create it with --read-only, a writable mount for the workspace and a tmpfs for /tmp (startSessionContainer({ sandbox }) does), or run without the sandbox (sandbox: false, tackle --no-sandbox).",
    );
  for (const path of options.writable ?? []) {
    if (!facts.writable.some((mount) => within(path, mount)))
      throw refuse(
        container,
        `${path} is not on a writable mount (writable: ${facts.writable.join(", ") || "none"}). Mount it writable when creating the container.`,
      );
  }
  return {
    mechanism: "container",
    network: network === "on" ? "on" : "off",
    writable: [...facts.writable],
    seccomp: facts.seccomp,
  };
}

/** Default tmpfs options for the temp dirs of a sandboxed session container (programs may run there). */
export const SANDBOX_TMPFS_OPTIONS = "rw,nosuid,nodev,exec,mode=1777";

/**
 * The `HostConfig` fields of a session container created for `sandbox`: no network unless it
 * asks (`network` is the mode to use for `"on"`), a read-only root, a tmpfs for `/tmp` and
 * `/var/tmp` and for each `writable` path no bind makes writable, no capabilities and no new
 * privileges. Throws `not_supported` for an allow list and `invalid_argument` for a network mode
 * that contradicts it.
 */
export function sandboxHostConfig(
  sandbox: SandboxOptions,
  options: { network: string | undefined; binds: readonly string[] },
): {
  NetworkMode: string;
  ReadonlyRootfs: true;
  Tmpfs: Record<string, string>;
  CapDrop: string[];
  SecurityOpt: string[];
} {
  const network = sandbox.network ?? "off";
  if (typeof network === "object")
    throw new OperationError(
      "not_supported",
      'startSessionContainer: a sandbox network allow list needs a filtering proxy, which the Docker adapter does not run. Use network "off" or "on".',
      { operation: "startSessionContainer" },
    );
  if (network === "off" && options.network !== undefined && options.network !== "none")
    throw new OperationError(
      "invalid_argument",
      `startSessionContainer: network "${options.network}" contradicts the sandbox's network "off"; drop one of them.`,
      { operation: "startSessionContainer" },
    );
  const writableBinds = options.binds
    .map((bind) => bind.split(":"))
    .filter((parts) => parts.length >= 2 && !(parts[2] ?? "").split(",").includes("ro"))
    .map((parts) => parts[1] as string);
  const tmpfs: Record<string, string> = { "/tmp": SANDBOX_TMPFS_OPTIONS, "/var/tmp": SANDBOX_TMPFS_OPTIONS };
  for (const path of sandbox.writable ?? []) {
    if (!writableBinds.some((bind) => within(path, bind))) tmpfs[path] = SANDBOX_TMPFS_OPTIONS;
  }
  return {
    NetworkMode: network === "on" ? (options.network ?? "bridge") : "none",
    ReadonlyRootfs: true,
    Tmpfs: tmpfs,
    CapDrop: ["ALL"],
    SecurityOpt: ["no-new-privileges"],
  };
}
