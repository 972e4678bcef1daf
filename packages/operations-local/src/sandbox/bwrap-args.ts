import type { SandboxProfile } from "./profile.js";

/** Host files the arguments refer to (see `sandbox-runtime.ts`). */
export interface SandboxNodes {
  /** An empty directory with mode 000, mounted over hidden directories. */
  hiddenDir: string;
  /** An empty file with mode 000, mounted over hidden files. */
  hiddenFile: string;
}

/** The child's descriptor bwrap reads the seccomp program from. */
export const SECCOMP_FD = 3;

/**
 * bubblewrap's arguments for one call, up to and including `--` (the command follows).
 *
 * - Namespaces: user (mapped to the caller's own uid), pid (the command sees and signals only
 *   its own processes, and /proc shows only them), ipc, uts, cgroup, and network unless it is
 *   `"on"`. `--disable-userns` stops the command from making a user namespace of its own.
 * - `--cap-drop ALL`: run by root, bwrap would otherwise keep every capability inside the
 *   sandbox, enough to remount the read-only root writable.
 * - `--new-session`: no controlling terminal to type into. No `--die-with-parent`: on timeout
 *   or abort the host ends the sandbox's processes itself, SIGTERM first and SIGKILL after the
 *   grace, exactly as without a sandbox. With it, the SIGTERM that ends the outer bwrap would
 *   kill the whole namespace at once and no command could have its grace. The namespace's init
 *   (bwrap, pid 1 inside) ignores SIGTERM like any init without a handler; it carries the exec
 *   marker, so the host finds it, and the namespace ends with it when it gets the SIGKILL.
 * - Mounts, in order: the root read-only; fresh /dev and /proc; empty tmpfs over /tmp, /var/tmp,
 *   /home, /root, /run; the user's home (read-only), extra readable paths and the writable ones,
 *   parents first; then an empty node without permissions over each hidden path.
 */
export function bwrapArguments(
  profile: SandboxProfile,
  nodes: SandboxNodes,
  options: { cwd: string; seccomp: boolean },
): string[] {
  const args = [
    "--unshare-user",
    "--unshare-pid",
    "--unshare-ipc",
    "--unshare-uts",
    "--unshare-cgroup-try",
    ...(profile.network === "on" ? [] : ["--unshare-net"]),
    "--disable-userns",
    "--cap-drop",
    "ALL",
    "--new-session",
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
  ];
  for (const dir of profile.tmpfs) args.push("--tmpfs", dir);
  for (const bind of profile.binds) args.push(bind.writable ? "--bind" : "--ro-bind", bind.path, bind.path);
  for (const hide of profile.hidden)
    args.push("--ro-bind", hide.type === "dir" ? nodes.hiddenDir : nodes.hiddenFile, hide.path);
  args.push("--chdir", options.cwd);
  if (options.seccomp) args.push("--seccomp", String(SECCOMP_FD));
  args.push("--");
  return args;
}
