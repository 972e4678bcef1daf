import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { access, open, stat } from "node:fs/promises";
import { delimiter, isAbsolute, join } from "node:path";
import {
  type ExecCleanup,
  type ExecOptions,
  type ExecResult,
  type ExecSpawn,
  OperationError,
  type OutputCut,
  type SandboxOptions,
  type ShellKind,
  throwIfAborted,
  toOperationError,
} from "@tackle/operations";
import { effectiveSandbox, MAX_DRAIN_AFTER_EXIT_MS } from "@tackle/operations/adapter";
import { checkPath } from "./guard.js";
import { OutputCapper } from "./output-capper.js";
import { OutputFile } from "./output-file.js";
import type { CommandTree } from "./process-tree.js";
import { RunningCommand } from "./running-command.js";
import { startProxy } from "./sandbox/network-proxy.js";
import { SANDBOX_SHELL_PID, type SandboxedCommand, sandboxCommand } from "./sandbox/sandboxed-command.js";
import type { SpawnedProcess, Spawner, SpawnRequest, StdioSlot } from "./spawner/spawner.js";

/** Host-side settings of the local `exec`. */
export interface LocalExecConfig {
  /** Base environment the command's `env` is merged over (default: this process's environment). */
  baseEnv: NodeJS.ProcessEnv;
  /** Default SIGTERM to SIGKILL grace (ms). */
  killGraceMs: number;
  /** How long to keep reading pipes after the shell exited, measured from the last output (ms). */
  idleGraceMs: number;
  /** Sandbox of every command that does not say otherwise (`ExecOptions.sandbox`). */
  sandbox?: SandboxOptions;
  /** Starts the command (and the output capper): in this process or through the spawn helper. */
  spawner: Spawner;
}

/**
 * Environment variable set to a random value for each command, so its processes can be found
 * after they left its process group and lost their parent (see `findMarked`).
 */
export const EXEC_MARKER_VARIABLE = "TACKLE_EXEC_ID";

const SHELL_ARGS: Record<ShellKind, (command: string) => [string, string[]]> = {
  bash: (command) => ["bash", ["-c", command]],
  sh: (command) => ["sh", ["-c", command]],
  pwsh: (command) => ["pwsh", ["-NoProfile", "-NonInteractive", "-Command", command]],
};

/**
 * Runs a command in its own process group (`detached`), stdin on /dev/null. Output is delivered
 * as chunks in arrival order, optionally appended to `outputPath`. See the package README for the
 * whole lifecycle (timeout, abort, idle grace, leftover processes).
 */
export async function exec(
  command: string,
  options: ExecOptions,
  config: LocalExecConfig,
): Promise<ExecResult> {
  throwIfAborted(options.signal, "exec");
  checkOptions(command, options);
  await checkCwd(options.cwd);
  const [shellFile, shellArgs] = SHELL_ARGS[options.shell](command);
  const env = { ...mergeEnv(config.baseEnv, options.env), [EXEC_MARKER_VARIABLE]: markerValue() };
  const sandboxOptions = effectiveSandbox(options.sandbox, config.sandbox);
  // Asked for and unavailable rejects here (not_supported): never a silent unsandboxed run.
  const sandbox = sandboxOptions
    ? await sandboxCommand(sandboxOptions, { shellFile, shellArgs, cwd: options.cwd, env }, startProxy)
    : undefined;
  if (sandbox) Object.assign(env, sandbox.env);
  try {
    return await execPrepared(options, config, env, sandbox ?? { file: shellFile, args: shellArgs });
  } finally {
    await sandbox?.proxy?.close();
  }
}

/** {@link exec} once the command line (shell, or bubblewrap around it) and environment are set. */
async function execPrepared(
  options: ExecOptions,
  config: LocalExecConfig,
  env: NodeJS.ProcessEnv,
  command: { file: string; args: string[] } | SandboxedCommand,
): Promise<ExecResult> {
  const sandbox = "seccomp" in command ? command : undefined;
  const limited = options.outputPath !== undefined && options.outputLimitBytes !== undefined;
  // The fast path hands the file to the shell; with a limit the host must count every byte.
  const direct = options.outputPath !== undefined && options.streamChunks === false && !limited;
  // Not streamed, under a budget, on POSIX: the capper writes the file (one pipe for both
  // streams keeps their order, as the file descriptor of the fast path does).
  const capped =
    limited &&
    options.streamChunks === false &&
    process.platform !== "win32" &&
    (await onPath("sh", config.baseEnv)) &&
    (await onPath("dd", config.baseEnv));
  const output = options.outputPath
    ? direct
      ? await openDirect(options.outputPath)
      : capped
        ? await startCapper(options.outputPath, options.outputLimitBytes as number, config)
        : await openFile(options.outputPath, options.outputLimitBytes)
    : undefined;
  const started = Date.now();
  let child: SpawnedProcess;
  try {
    const stdio: StdioSlot[] =
      output instanceof OutputCapper
        ? ["ignore", output.input, output.input]
        : output && "sizeBefore" in output
          ? ["ignore", output.slot, output.slot]
          : ["ignore", "pipe", "pipe"];
    // bwrap reads the seccomp program from the child's descriptor 3 (SECCOMP_FD), a pipe, and
    // the hidden files' (empty) contents from the descriptors after it (FIRST_HIDDEN_FILE_FD
    // up), one /dev/null each (bwrap closes each).
    if (sandbox) {
      stdio.push({ input: sandbox.seccomp });
      for (let i = 0; i < sandbox.hiddenFileFds; i++) stdio.push({ file: "/dev/null", flags: "r" });
    }
    child = await spawnShell(config.spawner, {
      file: command.file,
      args: command.args,
      cwd: options.cwd,
      env,
      stdio,
      drain: { idleGraceMs: config.idleGraceMs, maxMs: MAX_DRAIN_AFTER_EXIT_MS },
    });
  } catch (error) {
    if (output instanceof OutputCapper) {
      output.releaseInput();
      await output.finish();
    } else if (output instanceof OutputFile) await output.close();
    throw error;
  }
  const report = sandbox ? { ...sandbox.report, hostPid: child.pid! } : undefined;
  // Before any chunk: 'data' events come from later turns of the event loop. A sandboxed
  // command reports the ids it sees itself (its pid namespace); the host pid is in the report.
  reportSpawn(
    options,
    report
      ? { pid: SANDBOX_SHELL_PID, pgid: SANDBOX_SHELL_PID, sandbox: report }
      : { pid: child.pid!, pgid: child.pid! },
  );
  // Construct first: it attaches the exit listener synchronously, before any other await.
  const tree: CommandTree = {
    pgid: child.pid!,
    known: new Set([child.pid!]),
    marker: `${EXEC_MARKER_VARIABLE}=${env[EXEC_MARKER_VARIABLE]}`,
    startedAt: started,
    ...(sandbox ? { sandboxed: true } : {}),
  };
  const sink = output instanceof OutputFile ? output : undefined;
  const run = new RunningCommand(child, tree, options, config, sink);
  // The shell holds its own copy of the pipe; the host's (or the helper's) is not needed.
  if (output instanceof OutputCapper) output.releaseInput();
  const result = await run.finished;
  // The group is gone (and, on Linux, every marked process): the output is finished after this.
  reportEnded(options, result.cleanup);
  let { stdoutBytes, stderrBytes } = result;
  let outputCut: OutputCut | undefined;
  if (output instanceof OutputCapper) {
    const written = await output.finish();
    outputCut = written.cut;
    stdoutBytes = written.outputBytes;
    stderrBytes = 0;
  } else if (output && "sizeBefore" in output) {
    // One fd for both streams keeps their order but loses the split: report the file's growth.
    stdoutBytes = (await stat(options.outputPath!)).size - output.sizeBefore;
    stderrBytes = 0;
  } else if (sink) {
    const written = await sink.close();
    outputCut = written.cut;
    if (options.streamChunks === false) {
      // As on the fast path (and on every adapter): all output in one count.
      stdoutBytes = written.outputBytes;
      stderrBytes = 0;
    }
  }
  if (config.spawner.lost(child)) {
    // Its processes were ended above (group and marker); what it printed until then is kept.
    throw new OperationError(
      "connection_lost",
      `exec: the spawn helper process exited while the command ran (cleanup ${result.cleanup.confirmed ? "confirmed" : "not confirmed"}); run the command again`,
      { operation: "exec" },
    );
  }
  const blocked = sandbox?.proxy?.blocked ?? [];
  return {
    ...result,
    ...(report ? { cleanup: { ...result.cleanup, pid: SANDBOX_SHELL_PID } } : {}),
    stdoutBytes,
    stderrBytes,
    ...(outputCut ? { outputCut } : {}),
    ...(report ? { sandbox: { ...report, ...(blocked.length > 0 ? { blocked: [...blocked] } : {}) } } : {}),
    elapsedMs: Date.now() - started,
  };
}

/** Calls `onSpawn` (detached: the command leads its own group); a throw is ignored. */
function reportSpawn(options: ExecOptions, spawn: ExecSpawn): void {
  try {
    options.onSpawn?.(spawn);
  } catch {
    // onSpawn must not throw; a faulty consumer must not leave the process unmanaged.
  }
}

/** Calls `onEnded` with the cleanup `exec` will report; a throw is ignored. */
function reportEnded(options: ExecOptions, cleanup: ExecCleanup): void {
  try {
    options.onEnded?.(cleanup);
  } catch {
    // onEnded must not throw; the output is still finished and the result returned.
  }
}

function checkOptions(command: string, options: ExecOptions): void {
  const fail = (message: string) => {
    throw new OperationError("invalid_argument", `exec: ${message}`, { operation: "exec" });
  };
  if (typeof command !== "string" || command.includes("\0"))
    fail("command must be a string without NUL bytes");
  if (!Object.hasOwn(SHELL_ARGS, options.shell)) fail(`unknown shell "${String(options.shell)}"`);
  const sandbox = options.sandbox as unknown;
  if (
    sandbox !== undefined &&
    sandbox !== false &&
    (typeof sandbox !== "object" || sandbox === null || Array.isArray(sandbox))
  )
    fail(`sandbox must be an options object or false, got ${JSON.stringify(sandbox)}`);
  for (const name of ["timeoutMs", "killGraceMs", "outputLimitBytes"] as const) {
    const value = options[name];
    if (value !== undefined && !(Number.isFinite(value) && value >= 0))
      fail(`${name} must be >= 0, got ${value}`);
  }
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (name === "" || name.includes("=") || name.includes("\0") || value?.includes("\0")) {
      fail(`invalid environment variable ${JSON.stringify(name)}`);
    }
  }
}

async function checkCwd(cwd: string): Promise<void> {
  checkPath(cwd, "exec");
  let stats: Awaited<ReturnType<typeof stat>>;
  try {
    stats = await stat(cwd);
  } catch (error) {
    throw toOperationError(error, { operation: "exec", path: cwd });
  }
  if (!stats.isDirectory()) {
    throw new OperationError("not_directory", `exec: cwd is not a directory: ${cwd}`, {
      operation: "exec",
      path: cwd,
    });
  }
}

/**
 * The output file for the fast path, created when missing: the shell gets it opened for
 * appending as stdout and stderr (`slot`); its size now tells how much the command added.
 */
async function openDirect(path: string): Promise<{ slot: StdioSlot; sizeBefore: number }> {
  checkPath(path, "exec");
  try {
    const handle = await open(path, "a", 0o600);
    try {
      return { slot: { file: path, flags: "a" }, sizeBefore: (await handle.stat()).size };
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw toOperationError(error, { operation: "exec", path });
  }
}

/** The capper for `path` (a `sh` on PATH), with PATH only: it runs `sh`, `dd` and `stat`. */
function startCapper(path: string, limit: number, config: LocalExecConfig): Promise<OutputCapper> {
  checkPath(path, "exec");
  return OutputCapper.start(path, limit, { PATH: config.baseEnv.PATH }, config.spawner);
}

/** The output file the host writes (counted, or streamed as well), under the output budget. */
function openFile(path: string, limit: number | undefined): Promise<OutputFile> {
  checkPath(path, "exec");
  return OutputFile.open(path, limit);
}

/** A fresh random value of {@link EXEC_MARKER_VARIABLE}. */
function markerValue(): string {
  return randomBytes(12).toString("hex");
}

/**
 * True when `file` can be run with `env`'s PATH. The merged-output path starts the shell through
 * `sh`, which would turn a missing shell into exit code 127: checked first so it stays the typed
 * `not_supported` of a direct spawn.
 */
async function onPath(file: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  const dirs = isAbsolute(file) ? [""] : (env.PATH ?? "").split(delimiter).filter(Boolean);
  for (const dir of dirs) {
    try {
      await access(dir === "" ? file : join(dir, file), constants.X_OK);
      return true;
    } catch {
      // not in this directory
    }
  }
  return false;
}

/** `env` merged over `base`; `undefined` removes a variable. */
function mergeEnv(base: NodeJS.ProcessEnv, env: ExecOptions["env"]): NodeJS.ProcessEnv {
  const merged: NodeJS.ProcessEnv = { ...base };
  for (const [name, value] of Object.entries(env ?? {})) {
    if (value === undefined) delete merged[name];
    else merged[name] = value;
  }
  return merged;
}

/** Spawns detached (the command leads its own group); a missing shell rejects with a typed error. */
async function spawnShell(
  spawner: Spawner,
  request: Omit<SpawnRequest, "detached">,
): Promise<SpawnedProcess> {
  try {
    return await spawner.spawn({ ...request, detached: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      // cwd was checked first, so ENOENT here means the shell binary itself is missing.
      throw new OperationError(
        "not_supported",
        `exec: shell "${request.file}" is not installed in this environment`,
        { operation: "exec", cause: error },
      );
    }
    throw toOperationError(error, { operation: "exec" });
  }
}
