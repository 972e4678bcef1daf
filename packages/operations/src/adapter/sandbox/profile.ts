import { posix } from "node:path";
import { OperationError } from "../../errors.js";
import { DEFAULT_SANDBOX_DENY, type SandboxOptions } from "../../sandbox.js";

const { isAbsolute, join, sep } = posix;
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

/** The sandbox options in force for a call: the call's fields over the adapter's default. */
export function effectiveSandbox(
  call: SandboxOptions | false | undefined,
  adapter: SandboxOptions | undefined,
): SandboxOptions | undefined {
  if (call === false) return undefined;
  if (call === undefined) return adapter;
  return { ...adapter, ...call };
}

/**
 * What the profile needs to know about the file system the command runs on: the local disk for
 * the local adapter, the remote host's (over SFTP) for the SSH adapter. Each lookup answers
 * `undefined` when the path does not exist or cannot be looked at.
 */
export interface SandboxFileFacts {
  /** The kind of node at `path`, the last component not followed. */
  lstat(path: string): Promise<"dir" | "file" | "link" | undefined>;
  /** The kind of node at `path`, links followed. */
  stat(path: string): Promise<"dir" | "file" | undefined>;
  /** The canonical path (every link resolved). */
  realpath(path: string): Promise<string | undefined>;
  /** The home directory of the user the command runs as (`~/` of the deny list), if known. */
  userHome: string | undefined;
}

/**
 * Turns the options into a mount plan for the machine `facts` describes: real paths, what
 * exists, what each denied path is. `home` is the home directory the command sees (its `HOME`),
 * shown read-only; `~/` entries of the deny list apply to it and to the user's own home
 * (`facts.userHome`), in case that one is visible too (through the workspace, say). Throws
 * `invalid_argument` for a relative path. The lookups go out together (a remote host answers
 * them in a few round trips, not one each).
 */
export async function resolveSandboxProfile(
  options: SandboxOptions,
  home: string | undefined,
  facts: SandboxFileFacts,
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
          { operation: "exec" },
        );
    }
  }
  const userHome = facts.userHome;
  const homes = unique([home, userHome].filter((h): h is string => !!h && isAbsolute(h) && h !== "/"));
  const network = options.network ?? "off";
  // Only the command's own home is shown: with another HOME, the user's real home is one of the
  // homes the sandbox hides (its secrets are on the deny list all the same).
  const own = home && isAbsolute(home) ? home : userHome;
  const shown: [string, boolean][] = [
    ...(own && own !== "/" ? [[own, false] as [string, boolean]] : []),
    ...(network === "on" ? NETWORK_RUN_DIRS.map((dir) => [dir, false] as [string, boolean]) : []),
    ...(options.readable ?? []).map((path) => [path, false] as [string, boolean]),
    ...(options.writable ?? []).map((path) => [path, true] as [string, boolean]),
  ];
  const denied = [...DEFAULT_SANDBOX_DENY, ...(options.deny ?? [])].flatMap((entry) =>
    entry.startsWith("~/") ? homes.map((h) => join(h, entry.slice(2))) : isAbsolute(entry) ? [entry] : [],
  );
  const [tmpfsKinds, shownReal, deniedKinds] = await Promise.all([
    Promise.all(SANDBOX_TMPFS_DIRS.map((dir) => facts.lstat(dir))),
    Promise.all(shown.map(([path]) => facts.realpath(path))),
    Promise.all(denied.map((path) => facts.lstat(path))),
  ]);
  const tmpfs = SANDBOX_TMPFS_DIRS.filter((_, i) => tmpfsKinds[i] === "dir");
  const binds: SandboxBind[] = [];
  shown.forEach(([, writable], i) => {
    const real = shownReal[i];
    if (real && real !== "/") binds.push({ path: real, writable });
  });
  // Parents first: a later mount covers the ones below it, so a read-only home inside a
  // writable root stays read-only, and a writable root inside a hidden dir is shown.
  binds.sort((a, b) => depth(a.path) - depth(b.path));
  const visible = (path: string) =>
    !tmpfs.some((dir) => within(path, dir)) || binds.some((bind) => within(path, bind.path));
  // A denied link hides both its own path and its target.
  const targets = await Promise.all(
    denied.map(async (path, i) => {
      const kind = deniedKinds[i];
      if (!kind) return [];
      if (kind !== "link") return [path];
      const real = await facts.realpath(path);
      return real ? [path, real] : [path];
    }),
  );
  const candidates = unique(targets.flat()).filter(visible);
  const kinds = await Promise.all(candidates.map((path) => facts.stat(path)));
  const hidden: SandboxHide[] = [];
  candidates.forEach((path, i) => {
    const type = kinds[i];
    if (type) hidden.push({ path, type });
  });
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
