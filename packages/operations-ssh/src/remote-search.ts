import { StringDecoder } from "node:string_decoder";
import {
  type CallOptions,
  type FilesRequest,
  type GrepEvent,
  type GrepRequest,
  OperationError,
  type SearchOperations,
  throwIfAborted,
} from "@tackle/operations";
import type { ClientChannel, Stats } from "ssh2";
import { raceLost, type Session, type SshConnection } from "./connection.js";
import { refined, typeOfMode } from "./files.js";
import { runRemote, shellQuote } from "./remote-command.js";
import { call, checkRemotePath, withSftp } from "./sftp-call.js";

/** Flags shared by grep and files: hidden files searched, `.git` skipped, ignore files honoured without a repo. */
function commonFlags(request: { glob?: string; includeIgnored?: boolean }): string[] {
  return [
    "--hidden",
    "--no-require-git",
    "--glob",
    "!.git",
    ...(request.includeIgnored ? ["--no-ignore"] : []),
    ...(request.glob ? ["--glob", request.glob] : []),
  ];
}

/**
 * Where rg runs and what it is given. rg matches `--glob` relative to its working directory, so
 * it runs inside the request's directory (or the file's parent) and prints paths relative to it.
 */
async function searchTarget(
  connection: SshConnection,
  path: string,
  signal: AbortSignal | undefined,
  operation: string,
): Promise<{ cwd: string; target: string }> {
  const stats = await withSftp(connection, operation, path, signal, async (sftp) => {
    try {
      return await call<Stats>((cb) => sftp.stat(path, cb));
    } catch (error) {
      throw await refined(sftp, error, operation, path);
    }
  });
  if (typeOfMode(stats.mode) === "directory") return { cwd: path, target: "." };
  const slash = path.lastIndexOf("/");
  return { cwd: slash <= 0 ? "/" : path.slice(0, slash), target: path.slice(slash + 1) };
}

/** rg prints `./a/b` for the target `.`: the contract wants `a/b`. */
function relativePath(path: string): string {
  return path.startsWith("./") ? path.slice(2) : path;
}

function textOf(value: { text?: string; bytes?: string } | undefined): string {
  if (!value) return "";
  return value.text ?? Buffer.from(value.bytes ?? "", "base64").toString("utf8");
}

/**
 * Streams the stdout lines of `rg` run remotely. The command runs as the session's group
 * leader and prints its pid first (on stderr); when the consumer stops early (a limit), the group
 * is killed through a second channel so rg does not keep walking the tree.
 */
async function* remoteLines(
  connection: SshConnection,
  cwd: string,
  argv: string[],
  signal: AbortSignal | undefined,
  operation: string,
): AsyncGenerator<string, { exitCode: number | null; stderr: string }> {
  throwIfAborted(signal, operation);
  const session = await connection.session(signal, operation);
  const release = await connection.slots.acquire(signal);
  const state = {
    queue: [] as string[],
    pending: "",
    decoder: new StringDecoder("utf8"),
    stderr: "",
    exitCode: null as number | null,
    closed: false,
    wake: undefined as (() => void) | undefined,
  };
  const poke = () => {
    state.wake?.();
    state.wake = undefined;
  };
  const command = `echo "$$" >&2; cd -- ${shellQuote(cwd)} || exit 2; exec ${argv.map(shellQuote).join(" ")} </dev/null`;
  const channel = await raceLost(
    session.exec(command, (opened) => {
      // Listeners go on synchronously: see Session.exec.
      opened.on("data", (bytes: Buffer) => {
        const lines = (state.pending + state.decoder.write(bytes)).split("\n");
        state.pending = lines.pop() ?? "";
        state.queue.push(...lines);
        poke();
      });
      opened.stderr.on("data", (bytes: Buffer) => {
        state.stderr += bytes.toString("utf8");
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
  try {
    for (;;) {
      while (queue.length > 0) yield queue.shift() as string;
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
    if (state.pending) yield state.pending;
    const [, ...rest] = state.stderr.split("\n");
    return { exitCode: state.exitCode, stderr: rest.join("\n") };
  } finally {
    signal?.removeEventListener("abort", onAbort);
    unsubscribeLost();
    if (state.closed) release();
    else void stopRemote(session, channel, state.stderr).finally(release);
  }
}

/** Ends an rg that is still walking: kill its group (pid from its first stderr line), close the channel. */
async function stopRemote(session: Session, channel: ClientChannel, stderr: string): Promise<void> {
  const pid = Number.parseInt(stderr, 10);
  if (Number.isInteger(pid) && pid > 1 && !session.isLost) {
    await runRemote(session, `kill -s TERM -- -${pid} 2>/dev/null`).catch(() => undefined);
  }
  channel.close();
}

/** rg exit code 2 with nothing found: the pattern or the path was refused. */
function searchFailure(operation: string, path: string, stderr: string): OperationError {
  return new OperationError(
    "invalid_argument",
    `${operation}: ripgrep refused the request: ${stderr.trim()}`,
    {
      operation,
      path,
    },
  );
}

/** `search` on a remote ripgrep binary (`rgPath`, e.g. "rg"). */
export function createRemoteSearch(connection: SshConnection, rgPath: string): SearchOperations {
  return {
    async *grep(request: GrepRequest, options?: CallOptions): AsyncIterable<GrepEvent> {
      checkRemotePath(request.path, "grep");
      throwIfAborted(options?.signal, "grep");
      const { cwd, target } = await searchTarget(connection, request.path, options?.signal, "grep");
      const argv = [
        rgPath,
        "--json",
        ...commonFlags(request),
        ...(request.ignoreCase ? ["--ignore-case"] : []),
        ...(request.literal ? ["--fixed-strings"] : []),
        ...(request.context ? ["--context", String(request.context)] : []),
        "--regexp",
        request.pattern,
        "--",
        target,
      ];
      const lines = remoteLines(connection, cwd, argv, options?.signal, "grep");
      let matches = 0;
      let events = 0;
      for (;;) {
        const next = await lines.next();
        if (next.done) {
          if (next.value.exitCode === 2 && events === 0)
            throw searchFailure("grep", request.path, next.value.stderr);
          return;
        }
        const event = JSON.parse(next.value) as {
          type: string;
          data: {
            path?: { text?: string; bytes?: string };
            lines?: { text?: string; bytes?: string };
            line_number?: number;
          };
        };
        events++;
        if (event.type !== "match" && event.type !== "context") continue;
        yield {
          type: event.type,
          path: relativePath(textOf(event.data.path)),
          lineNumber: event.data.line_number ?? 0,
          line: textOf(event.data.lines).replace(/\r?\n$/, ""),
        };
        if (event.type === "match" && request.maxMatches !== undefined && ++matches >= request.maxMatches) {
          await lines.return({ exitCode: null, stderr: "" });
          return;
        }
      }
    },

    async *files(request: FilesRequest, options?: CallOptions): AsyncIterable<string> {
      checkRemotePath(request.path, "files");
      throwIfAborted(options?.signal, "files");
      const { cwd, target } = await searchTarget(connection, request.path, options?.signal, "files");
      const argv = [rgPath, "--files", ...commonFlags(request), "--", target];
      const lines = remoteLines(connection, cwd, argv, options?.signal, "files");
      let count = 0;
      if (request.limit !== undefined && request.limit <= 0) return;
      for (;;) {
        const next = await lines.next();
        if (next.done) {
          if (next.value.exitCode === 2 && count === 0)
            throw searchFailure("files", request.path, next.value.stderr);
          return;
        }
        if (next.value === "") continue;
        yield relativePath(next.value);
        if (request.limit !== undefined && ++count >= request.limit) {
          await lines.return({ exitCode: null, stderr: "" });
          return;
        }
      }
    },
  };
}

/** True when `rgPath` runs on the remote host. */
export async function remoteHasRipgrep(session: Session, rgPath: string): Promise<boolean> {
  const result = await runRemote(session, `${shellQuote(rgPath)} --version >/dev/null 2>&1`);
  return result.exitCode === 0;
}
