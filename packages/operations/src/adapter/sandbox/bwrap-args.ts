import type { SandboxProfile } from "./profile.js";

/** The child's descriptor bwrap reads the seccomp program from. */
export const SECCOMP_FD = 3;

/**
 * The first of the child's descriptors bwrap reads the (empty) contents of hidden files from:
 * one descriptor per hidden file, each open on `/dev/null`, from this number up (bwrap closes
 * each once read, so they cannot be shared).
 */
export const FIRST_HIDDEN_FILE_FD = 4;

/** bubblewrap's arguments and how many hidden-file descriptors they expect. */
export interface BwrapArguments {
  args: string[];
  /** Descriptors {@link FIRST_HIDDEN_FILE_FD} up to this count, each open on `/dev/null`. */
  hiddenFileFds: number;
}

/**
 * bubblewrap's arguments for one call, up to and including `--` (the command follows).
 *
 * - Namespaces: user (mapped to the caller's own uid), pid (the command sees and signals only
 *   its own processes, and /proc shows only them), ipc, cgroup, and network unless it is
 *   `"on"`. No uts namespace: without capabilities the command cannot set the host's name
 *   anyway, and each namespace costs time at every start. `--disable-userns` stops the command from making a user namespace of its own.
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
 *   parents first; then an empty node without permissions over each hidden path: a fresh tmpfs
 *   with mode 000 over a directory, an empty read-only file with mode 000 over a file (its
 *   contents read from a descriptor on `/dev/null`). Both are made inside the sandbox: nothing on
 *   the host's disk to create or remove.
 */
export function bwrapArguments(
  profile: SandboxProfile,
  options: { cwd: string; seccomp: boolean },
): BwrapArguments {
  const args = [
    "--unshare-user",
    "--unshare-pid",
    "--unshare-ipc",
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
  // A tmpfs that a bind then covers whole (the home /root shown again) would be one mount for nothing.
  for (const dir of profile.tmpfs)
    if (!profile.binds.some((bind) => bind.path === dir)) args.push("--tmpfs", dir);
  for (const bind of profile.binds) args.push(bind.writable ? "--bind" : "--ro-bind", bind.path, bind.path);
  let hiddenFileFds = 0;
  for (const hide of profile.hidden) {
    if (hide.type === "dir") args.push("--perms", "0000", "--tmpfs", hide.path);
    else
      args.push(
        "--perms",
        "0000",
        "--ro-bind-data",
        String(FIRST_HIDDEN_FILE_FD + hiddenFileFds++),
        hide.path,
      );
  }
  args.push("--chdir", options.cwd);
  if (options.seccomp) args.push("--seccomp", String(SECCOMP_FD));
  args.push("--");
  return { args, hiddenFileFds };
}
