import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { access, open, stat } from "node:fs/promises";
import { delimiter, isAbsolute, join } from "node:path";
import type { Writable } from "node:stream";
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
import { effectiveSandbox, SECCOMP_FD } from "@tackle/operations/adapter";
import { checkPath } from "./guard.js";
import { OutputCapper } from "./output-capper.js";
import { OutputFile } from "./output-file.js";
import type { CommandTree } from "./process-tree.js";
import { RunningCommand } from "./running-command.js";
import { startProxy } from "./sandbox/network-proxy.js";
import { SANDBOX_SHELL_PID, type SandboxedCommand, sandboxCommand } from "./sandbox/sandboxed-command.js";

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
        ? await startCapper(options.outputPath, options.outputLimitBytes as number, config.baseEnv)
        : await openFile(options.outputPath, options.outputLimitBytes)
    : undefined;
  const started = Date.now();
  let child: ChildProcess;
  // Hidden files read their (empty) contents from /dev/null, one descriptor each (bwrap closes each).
  const devNull = sandbox && sandbox.hiddenFileFds > 0 ? await open("/dev/null", "r") : undefined;
  try {
    const stdio: ("ignore" | "pipe" | number | Writable)[] =
      output instanceof OutputCapper
        ? ["ignore", output.input, output.input]
        : output && "fd" in output
          ? ["ignore", output.fd, output.fd]
          : ["ignore", "pipe", "pipe"];
    // bwrap reads the seccomp program from the child's descriptor 3 (SECCOMP_FD), a pipe, and
    // the hidden files' contents from the descriptors after it (FIRST_HIDDEN_FILE_FD up).
    if (sandbox) {
      stdio.push("pipe");
      for (let i = 0; i < sandbox.hiddenFileFds; i++) stdio.push(devNull!.fd);
    }
    // The program goes into the pipe at once, not after the 'spawn' event: bwrap waits for it,
    // and on a loaded machine that event can come several milliseconds later.
    child = await spawnShell(command.file, command.args, { cwd: options.cwd, env, stdio }, (spawned) => {
      if (sandbox) writeSeccomp(spawned, sandbox.seccomp);
    });
  } catch (error) {
    if (output instanceof OutputCapper) {
      output.releaseInput();
      await output.finish();
    } else if (output && "fd" in output) await output.handle.close();
    else await output?.close();
    throw error;
  } finally {
    await devNull?.close();
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
  // The shell holds its own copy of the descriptor or pipe; the host's copy is not needed.
  if (output instanceof OutputCapper) output.releaseInput();
  else if (output && "fd" in output) await output.handle.close();
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
  } else if (output && "fd" in output) {
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

/**
 * Hands the seccomp program to bwrap through the child's pipe at `SECCOMP_FD` (it reads to the
 * end, then closes it). A bwrap that failed before reading makes the write fail: its exit code
 * says why, so the error is dropped here.
 */
function writeSeccomp(child: ChildProcess, program: Uint8Array): void {
  const pipe = child.stdio[SECCOMP_FD] as Writable | null | undefined;
  if (!pipe) return;
  pipe.on("error", () => undefined);
  pipe.end(program);
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

/** The output file for the fast path: its descriptor goes to the shell as stdout and stderr. */
async function openDirect(path: string) {
  checkPath(path, "exec");
  try {
    const handle = await open(path, "a");
    return { handle, fd: handle.fd, sizeBefore: (await handle.stat()).size };
  } catch (error) {
    throw toOperationError(error, { operation: "exec", path });
  }
}

/** The capper for `path` (a `sh` on PATH), with PATH only: it runs `sh`, `dd` and `stat`. */
function startCapper(path: string, limit: number, base: NodeJS.ProcessEnv): Promise<OutputCapper> {
  checkPath(path, "exec");
  return OutputCapper.start(path, limit, { PATH: base.PATH });
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

/**
 * Spawns detached and waits for 'spawn' or 'error', so a missing shell rejects with a typed error.
 * `started` runs synchronously right after the spawn call, before that wait.
 */
function spawnShell(
  file: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; stdio: ("ignore" | "pipe" | number | Writable)[] },
  started?: (child: ChildProcess) => void,
): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { ...options, detached: true, windowsHide: true });
    started?.(child);
    child.once("spawn", () => resolve(child));
    child.once("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") {
        // cwd was checked first, so ENOENT here means the shell binary itself is missing.
        reject(
          new OperationError("not_supported", `exec: shell "${file}" is not installed in this environment`, {
            operation: "exec",
            cause: error,
          }),
        );
      } else {
        reject(toOperationError(error, { operation: "exec" }));
      }
    });
  });
}
