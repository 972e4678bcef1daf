/**
 * The sandbox option of `exec`: one shape for every adapter. The local adapter runs the command
 * under bubblewrap (Linux); an adapter that cannot sandbox rejects a call that asks for it with
 * `not_supported`, never runs it unsandboxed. See docs/sandbox.md for the profile and the
 * mechanism.
 */

/**
 * Network of a sandboxed command.
 * - `"off"` (default): a network namespace of its own with only a loopback interface: no
 *   connection leaves the sandbox, not even to this machine's 127.0.0.1.
 * - `{ allow: [...] }`: still no network of its own, but `HTTP_PROXY` / `HTTPS_PROXY` point at a
 *   proxy the adapter runs, which connects only to the listed hosts. An entry is a host name
 *   (`registry.npmjs.org`), a domain and its subdomains (`*.github.com`), or either with a port
 *   (`localhost:8080`); without a port, 80 and 443 are allowed.
 * - `"on"`: the host's network, unfiltered.
 */
export type SandboxNetwork = "off" | "on" | { readonly allow: readonly string[] };

/**
 * What a sandboxed command may do. Everything not listed is read-only or hidden:
 * - writable: the paths of `writable` (the workspace roots) and a private, empty `/tmp`;
 * - readable: the whole system and the user's home, minus {@link DEFAULT_SANDBOX_DENY} and
 *   `deny`, and minus other users' homes (`/home/*`, `/root`) and `/run` (sockets of daemons);
 * - network: see {@link SandboxNetwork};
 * - processes: its own pid namespace (it sees and signals only its own processes), no ptrace,
 *   no new privileges, no capabilities, no new user namespaces.
 *
 * @example
 * ```ts
 * await ops.exec("npm test", { shell: "bash", cwd: "/repo",
 *   sandbox: { writable: ["/repo"], network: { allow: ["registry.npmjs.org"] } } });
 * ```
 */
export interface SandboxOptions {
  /** Absolute paths the command may write (default: none besides its private `/tmp`). */
  writable?: readonly string[];
  /** Extra absolute paths to show read-only (e.g. a toolchain inside a hidden directory). */
  readable?: readonly string[];
  /**
   * More secret locations to hide, added to {@link DEFAULT_SANDBOX_DENY}. `~/` stands for the
   * home directory. A hidden path reads as an empty directory or file without any permission.
   */
  deny?: readonly string[];
  /** Network access (default `"off"`). */
  network?: SandboxNetwork;
}

/**
 * Secret locations hidden from every sandboxed command (`~/` is the home directory of the
 * environment). Extend with {@link SandboxOptions.deny}.
 */
export const DEFAULT_SANDBOX_DENY: readonly string[] = [
  "~/.ssh",
  "~/.gnupg",
  "~/.aws",
  "~/.azure",
  "~/.config/gcloud",
  "~/.config/gh",
  "~/.config/hub",
  "~/.kube",
  "~/.docker/config.json",
  "~/.netrc",
  "~/.git-credentials",
  "~/.npmrc",
  "~/.pypirc",
  "~/.cargo/credentials.toml",
  "~/.local/share/keyrings",
  "~/.password-store",
  "~/.pki",
  "~/Library/Keychains",
];

/** Something a sandboxed command tried that the sandbox refused. */
export interface SandboxBlock {
  /**
   * - `network`: a proxy request to a host outside the allow list (the proxy's own record);
   * - `write`: a write that hit the read-only part of the sandbox;
   * - `hidden`: a hidden path or a refused system call;
   * - `offline`: a connection that failed for want of a network.
   * The last three are read from the command's error messages (by the shell tools, before any
   * redaction or truncation of the output), so the same message may have another cause.
   */
  kind: "network" | "write" | "hidden" | "offline";
  /** `network`: the `host:port` asked for. Otherwise the kind of message seen (`Read-only file system`). */
  target: string;
}

/** How one command was sandboxed: recorded in the audit, shown in hints. */
export interface SandboxReport {
  /**
   * The mechanism that enforced it: `bubblewrap` (local and SSH adapters), or `container` (the
   * Docker adapter: the container's own configuration, checked to give what was asked).
   */
  mechanism: "bubblewrap" | "container";
  /** Network mode; `allow` lists the hosts of an allow list. */
  network: "off" | "on" | "allow-list";
  allow?: string[];
  /** Paths the command could write (its private `/tmp` included). */
  writable: string[];
  /** A seccomp filter was loaded (ptrace, mount, bpf, kexec, new user namespaces... refused). */
  seccomp: boolean;
  /**
   * Pid of the sandbox's outer process on the host that runs it. The command's own ids
   * (`ExecSpawn.pid`, `ExecCleanup.pid`) are those of the sandbox's pid namespace.
   */
  hostPid?: number;
  /**
   * What the sandbox refused: the adapter reports the network requests outside the allow list;
   * the shell tools add what the command's error messages show (see {@link SandboxBlock}).
   */
  blocked?: SandboxBlock[];
}
