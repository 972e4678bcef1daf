import { homedir, hostname, userInfo } from "node:os";
import type { EnvironmentDescription, ExecResult, Operations, SandboxOptions } from "@tackle/operations";
import {
  checkAdapterOptions,
  EXEC_DEFAULTS,
  EXEC_OPTION_SPEC,
  type OptionSpec,
  RunningCommands,
} from "@tackle/operations/adapter";
import { exec } from "./exec.js";
import { chmod, lstat, mkdir, readdir, readlink, realpath, remove, rename, stat, symlink } from "./files.js";
import { openRead } from "./open-read.js";
import { readFile } from "./read-file.js";
import { createRipgrepSearch } from "./search.js";
import { createSpawner } from "./spawner/select-spawner.js";
import type { SpawnerMode } from "./spawner/spawner.js";
import { listTree } from "./tree-listing.js";
import { watchTree } from "./tree-watch.js";
import { writeFile } from "./write-file.js";

/** Options for {@link createLocalOperations}. */
export interface LocalOperationsOptions {
  /**
   * ripgrep binary for `search`. Default: the one shipped by `@vscode/ripgrep`. A binary from
   * PATH is used only when the host passes it here; nothing is ever downloaded.
   * Pass `false` to offer no `search` (tools then use their portable walk).
   */
  rgPath?: string | false;
  /** Base environment of every `exec` (default: `process.env` at call time). */
  env?: NodeJS.ProcessEnv;
  /** Default grace between SIGTERM and SIGKILL in ms (default 2000). */
  killGraceMs?: number;
  /** Idle grace for pipes held open after the shell exited, in ms (default 100). */
  idleGraceMs?: number;
  /**
   * Run every command in an OS sandbox with this profile (Linux: bubblewrap with a seccomp
   * filter) unless the call's `ExecOptions.sandbox` says otherwise. Off when omitted. A call
   * that asks for the sandbox where it cannot run rejects with `not_supported`; it never runs
   * unsandboxed. See docs/sandbox.md.
   *
   * @example
   * ```ts
   * const ops = createLocalOperations({ sandbox: { writable: ["/repo"], network: "off" } });
   * ```
   */
  sandbox?: SandboxOptions;
  /**
   * How commands and ripgrep are started (default `"auto"`). `"direct"`: `child_process.spawn`
   * in this process, which on Linux forks it: the event loop waits longer the more memory the
   * host holds. `"helper"`: a small helper process (one for all adapters of this process,
   * started on first use, stopped by the last adapter's `dispose()` or after 10 minutes
   * without work) starts them and relays their output, so a host with a large heap never forks
   * per command. `"auto"`: on Linux, the helper while this process's resident memory is at
   * or above `SPAWN_HELPER_RSS_BYTES` (200 MiB), direct below (and on other systems). If the helper dies, the commands it ran
   * are ended and their calls reject with `connection_lost`; the next call starts a new one.
   * See docs/performance.md, "Starting processes from a large host".
   *
   * @example
   * ```ts
   * const ops = createLocalOperations({ spawner: "helper" });
   * ```
   */
  spawner?: SpawnerMode;
}

/** The shared defaults (kill grace, idle grace) as this adapter applies them: `EXEC_DEFAULTS`. */
export const LOCAL_EXEC_DEFAULTS = EXEC_DEFAULTS;

const OPTION_SPEC = {
  ...EXEC_OPTION_SPEC,
  rgPath: {
    expected: "a path or false",
    test: (value) => value === false || (typeof value === "string" && value !== ""),
  },
  env: "object",
  sandbox: {
    expected: "an options object",
    test: (value) => typeof value === "object" && value !== null && !Array.isArray(value),
  },
  spawner: {
    expected: '"direct", "helper" or "auto"',
    test: (value) => value === "direct" || value === "helper" || value === "auto",
  },
} as const satisfies OptionSpec;

/**
 * `Operations` for this machine: files on node:fs/promises, commands in their own process group,
 * search on the bundled ripgrep.
 *
 * @example
 * ```ts
 * const ops = createLocalOperations();
 * const text = new TextDecoder().decode(await ops.readFile("/etc/hostname"));
 * const result = await ops.exec("ls", { shell: "bash", cwd: "/tmp", timeoutMs: 10_000 });
 * ```
 */
export function createLocalOperations(options: LocalOperationsOptions = {}): Operations {
  checkAdapterOptions("createLocalOperations", options, OPTION_SPEC);
  const spawner = createSpawner(options.spawner ?? "auto");
  const execConfig = () => ({
    spawner,
    baseEnv: options.env ?? process.env,
    killGraceMs: options.killGraceMs ?? LOCAL_EXEC_DEFAULTS.killGraceMs,
    idleGraceMs: options.idleGraceMs ?? LOCAL_EXEC_DEFAULTS.idleGraceMs,
    ...(options.sandbox ? { sandbox: options.sandbox } : {}),
  });
  const search = options.rgPath === false ? undefined : createRipgrepSearch(options.rgPath, spawner);
  // dispose() cancels commands still running, so a disposed environment leaves no process behind.
  const running = new RunningCommands<ExecResult>();
  const trackedExec: Operations["exec"] = (command, execOptions) =>
    running.run(execOptions.signal, (signal) => exec(command, { ...execOptions, signal }, execConfig()));
  return {
    id: "local",
    platform: process.platform === "win32" ? "win32" : "posix",
    homeDir: homedir(),
    environment: localEnvironment(),
    stat,
    lstat,
    realpath,
    readlink,
    readFile,
    openRead,
    writeFile,
    mkdir,
    readdir,
    listTree,
    watchTree,
    remove,
    symlink,
    rename,
    chmod,
    exec: trackedExec,
    ...(search ? { search } : {}),
    // Commands first (they may still need the helper to end), then the helper itself.
    dispose: async () => {
      await running.cancelAll();
      await spawner.dispose();
    },
  };
}

/** This machine, as records name it: its host name and the user the host process runs as. */
function localEnvironment(): EnvironmentDescription {
  let user: string | undefined;
  try {
    user = userInfo().username;
  } catch {
    // A uid without a passwd entry (some containers): the record goes without a user name.
  }
  return { kind: "local", host: hostname(), ...(user !== undefined ? { user } : {}) };
}
