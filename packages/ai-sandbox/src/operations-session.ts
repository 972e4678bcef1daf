/**
 * A `SandboxSession` of the AI SDK over any Tackle `Operations`: the SDK's own tools and
 * harnesses work on Tackle's local, SSH, Docker and Kubernetes environments, with Tackle's path
 * policy on every path, its file mutation queue around every write, atomic writes kept inside
 * the workspace root, and commands that leave no process behind.
 */
import type { OutsideWorkspacePolicy, ResolvedPath } from "@tackle/extensions";
import { type ExecOptions, isOperationError, OperationError, type Operations } from "@tackle/operations";
import { createWorkspacePolicy, getFileMutationQueue, pathSyntax } from "@tackle/session";
import type { SandboxProcess, SandboxSession, SandboxSpawnOptions } from "./sandbox-types.js";
import { type CommandRequest, runOnOperations, spawnOnOperations } from "./session-process.js";
import { linesOf } from "./text-lines.js";

/** Options of {@link createOperationsSandboxSession}. */
export interface OperationsSandboxSessionOptions {
  /** The environment the session works in. */
  operations: Operations;
  /**
   * The session's base directory (absolute): relative paths and commands without a
   * `workingDirectory` start here, as the AI SDK's interface asks.
   */
  cwd: string;
  /** Workspace roots (absolute) the session may work in. Default: `[cwd]`. */
  roots?: readonly string[];
  /**
   * What happens to a path outside the roots (default `"deny"`; `"read-only"` allows reads;
   * `"allow"` allows everything). A denied path rejects with a `ToolError` of code
   * `outside_workspace`.
   */
  outside?: OutsideWorkspacePolicy;
  /** Shell that runs `run` and `spawn` commands (default `"bash"`). */
  shell?: ExecOptions["shell"];
  /** Ends each `run` and `spawn` command after this many ms (no limit by default). */
  timeoutMs?: number;
  /** Replaces the default `description` the session gives the model. */
  description?: string;
  /**
   * Make `run` wait for the writes in progress on this `Operations` object and hold new ones
   * until its command ends, as Tackle's shell tools do (default false). Commands then also run
   * one at a time, so turn it on for an agent that edits and runs commands in turn, not for a
   * harness that runs commands side by side.
   */
  commandsHoldWrites?: boolean;
}

const UTF8 = new TextEncoder();

/**
 * Creates a sandbox session on `operations`.
 *
 * - Paths: relative ones resolve against `cwd`; every path goes through Tackle's workspace
 *   policy (the same as the tools': links resolved, roots compared by real path) before a call.
 * - Writes: parents are created, then the file is replaced atomically (temp file and rename) with
 *   `within` the workspace root, one writer at a time per file through the mutation queue the
 *   Tackle tools on the same `Operations` object share.
 * - Commands: `run` and `spawn` end the whole process group of their command when it ends, is
 *   killed or aborted (escaped processes included where the adapter can find them). With
 *   `commandsHoldWrites`, `run` holds the queue's exclusive section as Tackle's shell tools do.
 *   `spawn` offers no writable stdin (`stdin: true` rejects with `not_supported` before anything
 *   starts), since Tackle's `exec` closes stdin.
 * - Errors are Tackle's typed errors: `OperationError` with its `code` from the environment,
 *   `ToolError` with code `outside_workspace` from the policy.
 *
 * @example
 * ```ts
 * // createLocalOperations from @tackle/operations-local; any Tackle adapter works the same way.
 * const sandbox = createOperationsSandboxSession({ operations: createLocalOperations(), cwd: "/work/repo" });
 * const result = await sandbox.run({ command: "git status --short" });
 * ```
 */
export function createOperationsSandboxSession(options: OperationsSandboxSessionOptions): SandboxSession {
  const ops = options.operations;
  const syntax = pathSyntax(ops.platform);
  if (!syntax.isAbsolute(options.cwd)) {
    throw new OperationError("invalid_argument", `cwd must be absolute: ${options.cwd}`, {
      path: options.cwd,
    });
  }
  const policy = createWorkspacePolicy({
    operations: ops,
    cwd: options.cwd,
    ...(options.roots ? { roots: options.roots } : {}),
    ...(options.outside ? { outside: options.outside } : {}),
  });
  const queue = getFileMutationQueue(ops);
  const shell = options.shell ?? "bash";
  const resolve = (path: string, access: "read" | "write", signal: AbortSignal | undefined) =>
    policy.resolve(path, access, { signal });
  const missingAsNull = <T>(call: Promise<T>): Promise<T | null> =>
    call.catch((error: unknown) => {
      if (isOperationError(error, "not_found")) return null;
      throw error;
    });

  const readBinaryFile: SandboxSession["readBinaryFile"] = async ({ path, abortSignal }) => {
    const target = await resolve(path, "read", abortSignal);
    return missingAsNull(ops.readFile(target.absolute, { signal: abortSignal }));
  };

  const writeBytes = async (path: string, bytes: Uint8Array, signal: AbortSignal | undefined) => {
    const target = await resolve(path, "write", signal);
    await ops.mkdir(syntax.dirname(target.absolute), { recursive: true, signal });
    await queue.withFileMutation(
      target.real,
      () => ops.writeFile(target.absolute, bytes, { signal, ...withinOf(target) }),
      { signal, real: true },
    );
  };

  const command = async (input: {
    command: string;
    workingDirectory?: string;
    env?: Record<string, string>;
    abortSignal?: AbortSignal;
  }): Promise<CommandRequest> => {
    const cwd =
      input.workingDirectory === undefined
        ? options.cwd
        : (await resolve(input.workingDirectory, "read", input.abortSignal)).absolute;
    return {
      command: input.command,
      cwd,
      shell,
      env: input.env,
      abortSignal: input.abortSignal,
      timeoutMs: options.timeoutMs,
    };
  };

  function spawn(input: SandboxSpawnOptions & { stdin: true }): Promise<never>;
  function spawn(input: SandboxSpawnOptions): Promise<SandboxProcess>;
  async function spawn(input: SandboxSpawnOptions): Promise<SandboxProcess> {
    if (input.stdin === true) {
      throw new OperationError(
        "not_supported",
        "spawn: no writable stdin here: Tackle's exec runs every command with stdin closed. Pass the input as a file or in the command.",
        { operation: "spawn" },
      );
    }
    return spawnOnOperations(ops, await command(input));
  }

  return {
    description:
      options.description ??
      [
        `A ${ops.platform === "win32" ? "Windows" : "POSIX"} environment (${ops.id}) reached through Tackle.`,
        `Working directory: ${options.cwd}. Commands run in ${shell}.`,
        `Paths outside ${(options.roots ?? [options.cwd]).join(", ")} are refused.`,
      ].join("\n"),
    readBinaryFile,
    readFile: async ({ path, abortSignal }) => {
      const target = await resolve(path, "read", abortSignal);
      // The first chunk is read here, so a missing file resolves to null as the interface asks.
      const chunks = ops.openRead(target.absolute, { signal: abortSignal })[Symbol.asyncIterator]();
      const first = await missingAsNull(chunks.next());
      if (first === null) return null;
      return new ReadableStream<Uint8Array>({
        start(controller) {
          if (first.done) controller.close();
          else controller.enqueue(first.value);
        },
        async pull(controller) {
          const next = await chunks.next();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        },
        async cancel() {
          await chunks.return?.();
        },
      });
    },
    readTextFile: async ({ path, encoding, startLine, endLine, abortSignal }) => {
      const bytes = await readBinaryFile({ path, ...(abortSignal ? { abortSignal } : {}) });
      if (bytes === null) return null;
      const text = new TextDecoder(encoding ?? "utf-8").decode(bytes);
      return linesOf(text, startLine, endLine);
    },
    writeFile: async ({ path, content, abortSignal }) =>
      writeBytes(path, await collect(content), abortSignal),
    writeBinaryFile: ({ path, content, abortSignal }) => writeBytes(path, content, abortSignal),
    writeTextFile: ({ path, content, encoding, abortSignal }) =>
      writeBytes(path, encodeText(content, encoding), abortSignal),
    stat: async ({ path, abortSignal }) => {
      const target = await resolve(path, "read", abortSignal);
      const info = await missingAsNull(ops.stat(target.absolute, { signal: abortSignal }));
      if (info === null) return null;
      return {
        type: info.type === "file" || info.type === "directory" ? info.type : "other",
        size: info.size,
      };
    },
    listDirectory: async ({ path, abortSignal }) => {
      const target = await resolve(path, "read", abortSignal);
      return missingAsNull(ops.readdir(target.absolute, { signal: abortSignal }));
    },
    deleteFile: async ({ path, abortSignal }) => {
      const target = await resolve(path, "write", abortSignal);
      return queue.withFileMutation(
        target.real,
        async () => {
          const info = await missingAsNull(ops.lstat(target.absolute, { signal: abortSignal }));
          if (info === null) return false;
          if (info.type === "directory") {
            throw new OperationError("is_directory", `deleteFile: ${target.display} is a directory`, {
              operation: "deleteFile",
              path: target.absolute,
            });
          }
          await ops.remove(target.absolute, { signal: abortSignal });
          return true;
        },
        { signal: abortSignal, real: true },
      );
    },
    spawn,
    run: async (input) => {
      const request = await command(input);
      const run = () => runOnOperations(ops, request, input.maxOutputLength);
      return options.commandsHoldWrites ? queue.withExclusive(run, { signal: input.abortSignal }) : run();
    },
  };
}

/** `within` for a write: the workspace root that holds the target, when inside one. */
function withinOf(target: ResolvedPath): { within?: string } {
  return target.root === undefined ? {} : { within: target.root };
}

/** Text as bytes in one of the encodings Node knows (`utf-8` by default). */
function encodeText(content: string, encoding: string | undefined): Uint8Array {
  if (encoding === undefined || /^utf-?8$/i.test(encoding)) return UTF8.encode(content);
  if (!Buffer.isEncoding(encoding)) {
    throw new OperationError("invalid_argument", `writeTextFile: unknown encoding ${encoding}`, {
      operation: "writeTextFile",
    });
  }
  return Buffer.from(content, encoding);
}

/** The whole stream as one byte array. */
async function collect(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks);
}
