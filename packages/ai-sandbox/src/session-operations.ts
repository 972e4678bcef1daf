/**
 * Tackle's `Operations` over any AI SDK sandbox session: the eight tools (and everything else
 * built on `Operations`) on Vercel Sandbox, E2B, just-bash, or any other engine that speaks the
 * AI SDK's interface.
 */
import { randomBytes } from "node:crypto";
import {
  type CallOptions,
  type EnvironmentDescription,
  OperationError,
  type Operations,
  tempFileDomain,
} from "@tackle/operations";
import { ConnectOnce, filesAfterConnect } from "@tackle/operations/adapter";
import { shellText } from "@tackle/operations/container-scripts";
import { execBasic } from "./basic-exec.js";
import { BasicSessionFiles } from "./basic-files.js";
import type { SandboxSessionLike } from "./sandbox-types.js";
import { execOnSession } from "./session-exec.js";
import { type SessionFacts, sessionScriptFiles } from "./session-scripts.js";
import { SessionShell } from "./session-shell.js";

/** Options of {@link createSandboxSessionOperations}. */
export interface SandboxSessionOperationsOptions {
  /** The adapter's `id` (keys the mutation queue): default `"ai-sandbox://<random>"`, one per adapter. */
  id?: string;
  /**
   * A directory (absolute) in the sandbox for staged writes and the control directories of
   * running commands (default `/tmp`). It must exist and be writable; the session's own file
   * methods must accept it.
   */
  tempDir?: string;
}

/** How the adapter reaches the session's files and commands, decided when it connects. */
export type SandboxSessionMode = "posix" | "basic";

/** `Operations` over a sandbox session, plus what it found when it connected. */
export interface SandboxSessionOperations extends Operations {
  /**
   * Probes the session once (later calls wait for the same probe) and tells how the adapter
   * works there: `"posix"` when its commands run in a POSIX system with the usual tools (`sh`,
   * `stat -c`, `dd`, `setsid`, `realpath`), which gives every method of the contract; `"basic"`
   * otherwise (an emulated shell such as just-bash), where the adapter uses the session's own
   * file methods and refuses with `not_supported` what they cannot do.
   */
  connect(options?: CallOptions): Promise<SandboxSessionMode>;
}

/**
 * Reports, line by line: HOME, the boot id and the pid namespace (the writer domain of temp
 * files; empty without /proc), then `posix` when every tool the shared scripts use answers as
 * they expect, else what is missing.
 */
const PROBE_SCRIPT = shellText`
printf '%s\n' "$HOME"
cat /proc/sys/kernel/random/boot_id 2>/dev/null || echo
readlink /proc/self/ns/pid 2>/dev/null || echo
_m=
for _t in dd setsid realpath readlink mv mkfifo tee; do command -v "$_t" >/dev/null 2>&1 || _m="$_m $_t"; done
case "$(stat -c %f / 2>/dev/null)" in *[!0-9a-f]*|'') _m="$_m stat-c" ;; esac
[ -d "$1" ] && [ -w "$1" ] || _m="$_m tempdir"
if [ -z "$_m" ]; then echo posix; else echo "missing:$_m"; fi
`;

interface Connected extends SessionFacts {
  mode: SandboxSessionMode;
  home: string | undefined;
  missing: string;
}

/**
 * Creates `Operations` over `session`. Created synchronously; the first call (or `connect()`)
 * probes the session with one `run`. Paths are POSIX and absolute, as everywhere in Tackle.
 *
 * In `"posix"` mode (see {@link SandboxSessionOperations.connect}) the adapter runs the same
 * shell scripts as Tackle's Docker and Kubernetes adapters (`ScriptFiles` and
 * `runWrappedCommand` of `@tackle/operations`, on the session's `spawn` and `run`): atomic writes with `within` and
 * conditional writes, links, permissions, commands in their own process group stopped with
 * TERM then KILL and every escaped process swept. It passes the Operations conformance kit there
 * (without `search`; the tools walk the tree instead).
 *
 * In `"basic"` mode it uses the session's file methods for bytes and bash-level commands
 * (`test`, `readlink`, `realpath`, `mkdir`, `rm`, `ln`, `mv`, `chmod`) for names and types;
 * conditional writes compare and write under a lock every adapter of this package on the session
 * shares; commands run through `spawn` and end through its `kill()`, so a stopped command's
 * cleanup is reported unconfirmed, and the output file of a command is kept by the host. What
 * neither can do (native search, `listTree`, an OS sandbox, removing a variable; times and
 * permission bits read as 0) is refused with `not_supported` (a typed code, never a silent
 * fallback).
 *
 * @example
 * ```ts
 * const operations = createSandboxSessionOperations(session); // any AI SDK sandbox session
 * // then, with @tackle/tools: createToolContext({ cwd: "/vercel/sandbox", operations })
 * ```
 */
export function createSandboxSessionOperations(
  session: SandboxSessionLike,
  options: SandboxSessionOperationsOptions = {},
): SandboxSessionOperations {
  const tempDir = options.tempDir ?? "/tmp";
  if (!tempDir.startsWith("/")) {
    throw new OperationError(
      "invalid_argument",
      `createSandboxSessionOperations: tempDir must be absolute: ${tempDir}`,
      {
        operation: "createSandboxSessionOperations",
      },
    );
  }
  const shell = new SessionShell(session);
  const connection = new ConnectOnce<Connected>(async (signal) => {
    const result = await shell.run(PROBE_SCRIPT, [tempDir], "connect", signal);
    const [home = "", bootId = "", namespace = "", verdict = ""] = result.stdout.split("\n");
    const posix = result.exitCode === 0 && verdict === "posix";
    return {
      mode: posix ? "posix" : "basic",
      home: home || undefined,
      // Without /proc no pid can be checked: a domain no other writer has leaves sweeping to age.
      writerDomain: bootId && namespace ? tempFileDomain(bootId, namespace) : randomBytes(6).toString("hex"),
      tempDir,
      missing: posix ? "" : verdict.replace(/^missing: */, "") || `the probe exited ${result.exitCode}`,
    };
  });
  const known = (): Connected => {
    if (!connection.known) throw new Error("the sandbox session is used before the adapter connected");
    return connection.known;
  };
  const posixFiles = sessionScriptFiles(shell, known);
  const basicFiles = new BasicSessionFiles(shell, () => known().missing);
  const files = filesAfterConnect(
    {
      stat: (...a) => (known().mode === "posix" ? posixFiles : basicFiles).stat(...a),
      lstat: (...a) => (known().mode === "posix" ? posixFiles : basicFiles).lstat(...a),
      realpath: (...a) => (known().mode === "posix" ? posixFiles : basicFiles).realpath(...a),
      readlink: (...a) => (known().mode === "posix" ? posixFiles : basicFiles).readlink(...a),
      readFile: (...a) => (known().mode === "posix" ? posixFiles : basicFiles).readFile(...a),
      openRead: (...a) => (known().mode === "posix" ? posixFiles : basicFiles).openRead(...a),
      writeFile: (...a) => (known().mode === "posix" ? posixFiles : basicFiles).writeFile(...a),
      mkdir: (...a) => (known().mode === "posix" ? posixFiles : basicFiles).mkdir(...a),
      readdir: (...a) => (known().mode === "posix" ? posixFiles : basicFiles).readdir(...a),
      remove: (...a) => (known().mode === "posix" ? posixFiles : basicFiles).remove(...a),
      symlink: (...a) => (known().mode === "posix" ? posixFiles : basicFiles).symlink(...a),
      rename: (...a) => (known().mode === "posix" ? posixFiles : basicFiles).rename(...a),
      chmod: (...a) => (known().mode === "posix" ? posixFiles : basicFiles).chmod(...a),
      listTree: (...a) => posixFiles.listTree(...a),
    },
    connection,
  );
  const { listTree, ...fileMethods } = files;
  const environment: EnvironmentDescription = { kind: "ai-sandbox" };
  return {
    id: options.id ?? `ai-sandbox://${randomBytes(6).toString("hex")}`,
    platform: "posix",
    get homeDir() {
      return connection.known?.home;
    },
    environment,
    ...fileMethods,
    /** The shared listing script, in `"posix"` mode only (tools walk with `readdir` otherwise). */
    get listTree() {
      return connection.known?.mode === "posix" ? listTree : undefined;
    },
    exec: async (command, execOptions) => {
      const facts = await connection.ready(execOptions.signal);
      return facts.mode === "posix"
        ? execOnSession(shell, tempDir, command, execOptions)
        : execBasic(session, command, execOptions);
    },
    connect: async (callOptions) => (await connection.ready(callOptions?.signal)).mode,
  };
}
