import {
  type CallOptions,
  type FilesRequest,
  type GrepEvent,
  type GrepRequest,
  notRegularFileError,
  OperationError,
  type SearchOperations,
  throwIfAborted,
} from "@tackle/operations";
import {
  filePathsOf,
  grepEventsOf,
  planFiles,
  planGrep,
  RIPGREP_STDERR_LIMIT,
  type RipgrepPlan,
  type RipgrepTarget,
  ripgrepExitError,
} from "@tackle/operations/ripgrep";
import type { ClientChannel, Stats } from "ssh2";
import { raceLost, type Session, type SshConnection } from "./connection.js";
import { refined, typeOfMode } from "./files.js";
import { runRemote } from "./remote-command.js";
import { call, checkRemotePath, withSftp } from "./sftp-call.js";
import { shellQuote } from "./shell-quote.js";

/**
 * Where rg runs and what it is given (see `RipgrepTarget`): inside the request's directory, or
 * in a file's parent with the file's name.
 */
async function searchTarget(
  connection: SshConnection,
  path: string,
  signal: AbortSignal | undefined,
  operation: string,
): Promise<{ cwd: string; target: RipgrepTarget }> {
  const stats = await withSftp(connection, operation, path, signal, async (sftp) => {
    try {
      return await call<Stats>((cb) => sftp.stat(path, cb));
    } catch (error) {
      throw await refined(sftp, error, operation, path);
    }
  });
  if (typeOfMode(stats.mode) === "directory") return { cwd: path, target: { kind: "directory" } };
  // rg reads a file it is given by name whatever its type: a FIFO would block it for good.
  if (typeOfMode(stats.mode) !== "file") throw notRegularFileError(operation, path);
  const slash = path.lastIndexOf("/");
  return {
    cwd: slash <= 0 ? "/" : path.slice(0, slash),
    target: { kind: "file", name: path.slice(slash + 1) },
  };
}

/** One remote rg run of a plan. */
interface RemoteRun<T> {
  rgPath: string;
  plan: RipgrepPlan<T>;
  cwd: string;
  signal: AbortSignal | undefined;
  operation: string;
  /** The request path, for errors. */
  path: string;
}

/**
 * Streams the output records of `rg` run remotely, one batch per chunk received. The command
 * runs as the session's group leader and prints its pid first (on stderr); when the consumer
 * stops early (a limit), the group is killed through a second channel so rg does not keep
 * walking the tree. Ends with `ripgrepExitError` when rg refused the request.
 */
async function* remoteBatches<T>(connection: SshConnection, run: RemoteRun<T>): AsyncGenerator<T[]> {
  const { signal, operation, cwd } = run;
  throwIfAborted(signal, operation);
  const session = await connection.session(signal, operation);
  const release = await connection.slots.acquire(signal);
  const reader = run.plan.reader();
  const state = {
    queue: [] as T[][],
    stderr: "",
    exitCode: null as number | null,
    closed: false,
    wake: undefined as (() => void) | undefined,
  };
  const poke = () => {
    state.wake?.();
    state.wake = undefined;
  };
  const argv = [run.rgPath, ...run.plan.args];
  const command = `echo "$$" >&2; cd -- ${shellQuote(cwd)} || exit 2; exec ${argv.map(shellQuote).join(" ")} </dev/null`;
  const channel = await raceLost(
    session.exec(command, (opened) => {
      // Listeners go on synchronously: see Session.exec.
      opened.on("data", (bytes: Buffer) => {
        const records = reader.push(bytes);
        if (records.length === 0) return;
        state.queue.push(records);
        poke();
      });
      opened.stderr.on("data", (bytes: Buffer) => {
        if (state.stderr.length < RIPGREP_STDERR_LIMIT) state.stderr += bytes.toString("utf8");
      });
      opened.on("exit", (code: number | null) => {
        state.exitCode = code;
      });
      opened.on("close", () => {
        state.closed = true;
        poke();
      });
      return opened;
    }),
    session,
    operation,
  ).catch((error: unknown) => {
    release();
    throw error;
  });
  const { queue } = state;
  const onAbort = () => poke();
  signal?.addEventListener("abort", onAbort);
  const unsubscribeLost = session.onLost(poke);
  channel.end();
  let records = 0;
  try {
    for (;;) {
      while (queue.length > 0) {
        const batch = queue.shift() as T[];
        records += batch.length;
        yield batch;
      }
      if (signal?.aborted) throwIfAborted(signal, operation);
      if (state.closed) break;
      if (session.isLost) {
        throw new OperationError("connection_lost", `${operation} failed: SSH connection lost`, {
          operation,
        });
      }
      await new Promise<void>((resolve) => {
        state.wake = resolve;
      });
    }
    const rest = reader.end();
    if (rest.length > 0) {
      records += rest.length;
      yield rest;
    }
    const [, ...stderr] = state.stderr.split("\n");
    const failure = ripgrepExitError({
      kind: run.plan.kind,
      exitCode: state.exitCode,
      stderr: stderr.join("\n"),
      records,
      operation,
      path: run.path,
      rgPath: run.rgPath,
    });
    if (failure) throw failure;
  } finally {
    signal?.removeEventListener("abort", onAbort);
    unsubscribeLost();
    if (state.closed) release();
    else void stopRemote(session, channel, state.stderr).finally(release);
  }
}

/**
 * Ends a remote command that is still running (an rg still walking, a listing stopped early):
 * kill its group (pid from its first stderr line), close the channel.
 */
export async function stopRemote(session: Session, channel: ClientChannel, stderr: string): Promise<void> {
  const pid = Number.parseInt(stderr, 10);
  if (Number.isInteger(pid) && pid > 1 && !session.isLost) {
    await runRemote(session, `kill -s TERM -- -${pid} 2>/dev/null`).catch(() => undefined);
  }
  channel.close();
}

/** `search` on a remote ripgrep binary (`rgPath`, e.g. "rg"). */
export function createRemoteSearch(connection: SshConnection, rgPath: string): SearchOperations {
  return {
    // planGrep/planFiles pass `--sort path` for `sortByPath`.
    sortsByPath: true,
    async *grep(request: GrepRequest, options?: CallOptions): AsyncIterable<GrepEvent> {
      const signal = options?.signal;
      checkRemotePath(request.path, "grep");
      throwIfAborted(signal, "grep");
      const { cwd, target } = await searchTarget(connection, request.path, signal, "grep");
      const plan = planGrep(request, target);
      if (plan.limit <= 0) return;
      const run = { rgPath, plan, cwd, signal, operation: "grep", path: request.path };
      yield* grepEventsOf(remoteBatches(connection, run), plan, signal);
    },

    async *files(request: FilesRequest, options?: CallOptions): AsyncIterable<string> {
      const signal = options?.signal;
      checkRemotePath(request.path, "files");
      throwIfAborted(signal, "files");
      const { cwd, target } = await searchTarget(connection, request.path, signal, "files");
      const plan = planFiles(request, target);
      if (plan.limit <= 0) return;
      const run = { rgPath, plan, cwd, signal, operation: "files", path: request.path };
      yield* filePathsOf(remoteBatches(connection, run), plan, signal);
    },
  };
}

/** True when `rgPath` runs on the remote host. */
export async function remoteHasRipgrep(session: Session, rgPath: string): Promise<boolean> {
  const result = await runRemote(session, `${shellQuote(rgPath)} --version >/dev/null 2>&1`);
  return result.exitCode === 0;
}
