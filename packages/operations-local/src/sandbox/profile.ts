import { lstat, realpath, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { isAbsolute, join, sep } from "node:path";
import { DEFAULT_SANDBOX_DENY, OperationError, type SandboxOptions } from "@tackle/operations";

/**
 * Directories replaced by an empty, private tmpfs in the sandbox. `/tmp` and `/var/tmp` become
 * the command's own temp dirs (writable, gone after the call); `/home` and `/root` hide other
 * users' homes (the user's own home is shown again, read-only); `/run` hides the sockets of
 * daemons (Docker's, D-Bus, agents), which a read-only mount would not stop anyone connecting to.
 */
export const SANDBOX_TMPFS_DIRS = ["/tmp", "/var/tmp", "/home", "/root", "/run"] as const;

/** Of {@link SANDBOX_TMPFS_DIRS}, the ones the command may write (its private temp dirs). */
export const SANDBOX_TEMP_DIRS = ["/tmp", "/var/tmp"] as const;

/** With the network on, these parts of /run come back (resolv.conf often points into them). */
const NETWORK_RUN_DIRS = ["/run/systemd/resolve", "/run/resolvconf"];

/** One path shown inside the sandbox: its real path, writable or not. */
export interface SandboxBind {
  path: string;
  writable: boolean;
}

/** A path hidden by mounting an empty node without permissions over it. */
export interface SandboxHide {
  path: string;
  type: "dir" | "file";
}

/** The concrete mount plan of one sandboxed call, from {@link resolveSandboxProfile}. */
export interface SandboxProfile {
  /** Existing directories of {@link SANDBOX_TMPFS_DIRS} (real directories, not links). */
  tmpfs: string[];
  /** Paths shown again over the tmpfs dirs or made writable, parents before children. */
  binds: SandboxBind[];
  /** Secret paths hidden, after every bind. */
  hidden: SandboxHide[];
  /** The network mode, as asked. */
  network: NonNullable<SandboxOptions["network"]>;
}

/**
 * Turns the options into a mount plan for this machine: real paths, what exists, what each
 * denied path is. `home` is the home directory the command sees (its `HOME`), shown read-only;
 * `~/` entries of the deny list apply to it and to the user's own home (`os.homedir()`), in
 * case that one is visible too (through the workspace, say). Throws `invalid_argument` for a
 * relative path.
 */
export async function resolveSandboxProfile(
  options: SandboxOptions,
  home: string | undefined,
): Promise<SandboxProfile> {
  for (const [field, list] of [
    ["writable", options.writable],
    ["readable", options.readable],
  ] as const) {
    for (const path of list ?? []) {
      if (typeof path !== "string" || !isAbsolute(path))
        throw new OperationError(
          "invalid_argument",
          `exec: sandbox.${field} needs absolute paths, got ${JSON.stringify(path)}`,
          {
            operation: "exec",
          },
        );
    }
  }
  const homes = unique([home, homedir()].filter((h): h is string => !!h && isAbsolute(h) && h !== "/"));
  const tmpfs: string[] = [];
  for (const dir of SANDBOX_TMPFS_DIRS) if (await isRealDirectory(dir)) tmpfs.push(dir);
  const network = options.network ?? "off";
  const binds: SandboxBind[] = [];
  const show = async (path: string, writable: boolean) => {
    const real = await realpath(path).catch(() => undefined);
    if (real && real !== "/") binds.push({ path: real, writable });
  };
  // Only the command's own home is shown: with another HOME, the user's real home is one of the
  // homes the sandbox hides (its secrets are on the deny list all the same).
  const own = home && isAbsolute(home) ? home : homedir();
  if (own !== "/") await show(own, false);
  if (network === "on") for (const dir of NETWORK_RUN_DIRS) await show(dir, false);
  for (const path of options.readable ?? []) await show(path, false);
  for (const path of options.writable ?? []) await show(path, true);
  // Parents first: a later mount covers the ones below it, so a read-only home inside a
  // writable root stays read-only, and a writable root inside a hidden dir is shown.
  binds.sort((a, b) => depth(a.path) - depth(b.path));
  const visible = (path: string) =>
    !tmpfs.some((dir) => within(path, dir)) || binds.some((bind) => within(path, bind.path));
  const hidden: SandboxHide[] = [];
  const seen = new Set<string>();
  const hide = async (path: string) => {
    const info = await lstat(path).catch(() => undefined);
    if (!info) return;
    const targets = [path];
    if (info.isSymbolicLink()) {
      const real = await realpath(path).catch(() => undefined);
      if (real) targets.push(real);
    }
    for (const target of targets) {
      if (seen.has(target) || !visible(target)) continue;
      const type = await stat(target).then(
        (s) => (s.isDirectory() ? ("dir" as const) : ("file" as const)),
        () => undefined,
      );
      if (!type) continue;
      seen.add(target);
      hidden.push({ path: target, type });
    }
  };
  for (const entry of [...DEFAULT_SANDBOX_DENY, ...(options.deny ?? [])]) {
    if (entry.startsWith("~/")) for (const h of homes) await hide(join(h, entry.slice(2)));
    else if (isAbsolute(entry)) await hide(entry);
  }
  return { tmpfs, binds, hidden, network };
}

/**
 * True when `path` can be seen inside the sandbox of `profile` (not under a tmpfs dir, or shown
 * again by a bind), so a cwd there exists for the command.
 */
export function visibleInSandbox(profile: SandboxProfile, path: string): boolean {
  return (
    !profile.tmpfs.some((dir) => within(path, dir)) ||
    profile.binds.some((bind) => within(path, bind.path)) ||
    SANDBOX_TEMP_DIRS.some((dir) => path === dir)
  );
}

/** True when `path` is `dir` or below it. */
export function within(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

function depth(path: string): number {
  return path.split(sep).length;
}

function unique<T>(items: T[]): T[] {
  return [...new Set(items)];
}

async function isRealDirectory(path: string): Promise<boolean> {
  const info = await lstat(path).catch(() => undefined);
  return info?.isDirectory() ?? false;
}
