/**
 * The file half of `Operations` in `"posix"` mode: the shared `ScriptFiles` of
 * `@tackle/operations` (the container file scripts the Docker and Kubernetes adapters run) on a
 * transport over the session: each script through `spawn` (exact bytes out), and a script's stdin
 * (a write's content) staged through the session's own `writeBinaryFile` in the temp directory
 * and redirected, since a session offers no stdin to every caller.
 */
import { randomBytes } from "node:crypto";
import { OperationError } from "@tackle/operations";
import {
  type ScriptCall,
  ScriptFiles,
  type ScriptRunResult,
  type ScriptTransport,
  shellQuote,
} from "@tackle/operations/container-scripts";
import type { SandboxProcess } from "./sandbox-types.js";
import { type SessionShell, sessionFailure } from "./session-shell.js";

/** What the scripts need to know about the environment, learnt when the adapter connects. */
export interface SessionFacts {
  /** `tempFileDomain` of the environment's process table (random without /proc). */
  writerDomain: string;
  /** Directory for staged writes and command control directories (absolute). */
  tempDir: string;
}

/** `ScriptFiles` over the session (see the module comment). */
export function sessionScriptFiles(shell: SessionShell, facts: () => SessionFacts): ScriptFiles {
  const start = async (argv: string[], call: ScriptCall, stdin?: Uint8Array) => {
    let command = argv.map(shellQuote).join(" ");
    if (stdin) {
      const staged = `${facts().tempDir}/.tackle-staged-${randomBytes(8).toString("hex")}`;
      try {
        await shell.session.writeBinaryFile({ path: staged, content: stdin });
      } catch (error) {
        // A staging write cut short may have left part of the file: remove it (best effort).
        void Promise.resolve(shell.session.run({ command: `rm -f ${shellQuote(staged)}` })).catch(
          () => undefined,
        );
        throw sessionFailure(error, call.operation, call.signal, call.path);
      }
      command = `${command} < ${shellQuote(staged)}; _s=$?; rm -f ${shellQuote(staged)}; exit $_s`;
    }
    try {
      return await shell.session.spawn({ command });
    } catch (error) {
      throw sessionFailure(error, call.operation, call.signal, call.path);
    }
  };
  const transport: ScriptTransport = {
    place: "sandbox",
    shells: undefined,
    async run(argv, call): Promise<ScriptRunResult> {
      const process = await start(argv, call, call.stdin);
      const chunks: Uint8Array[] = [];
      const [, stderr] = await Promise.all([
        drain(process, process.stdout, call, (chunk) => chunks.push(chunk)),
        collect(process.stderr),
      ]);
      return { exitCode: await exitOf(process, call), stdout: Buffer.concat(chunks), stderr };
    },
    async *stream(argv, call) {
      const process = await start(argv, call);
      void collect(process.stderr);
      const kill = () => void Promise.resolve(process.kill()).catch(() => undefined);
      call.signal?.addEventListener("abort", kill, { once: true });
      try {
        for await (const chunk of process.stdout) {
          if (call.signal?.aborted) break;
          yield chunk;
        }
        return await exitOf(process, call);
      } finally {
        call.signal?.removeEventListener("abort", kill);
        kill();
      }
    },
    lost: (operation, path) =>
      new OperationError("unknown", `${operation}: the sandbox session lost the script's process`, {
        operation,
        path,
      }),
    writerDomain: () => facts().writerDomain,
  };
  return new ScriptFiles(transport);
}

/** Reads `stream` to its end into `onChunk`; an abort of the call kills the process. */
async function drain(
  process: SandboxProcess,
  stream: ReadableStream<Uint8Array>,
  call: ScriptCall,
  onChunk: (chunk: Uint8Array) => void,
): Promise<void> {
  const kill = () => void Promise.resolve(process.kill()).catch(() => undefined);
  call.signal?.addEventListener("abort", kill, { once: true });
  try {
    for await (const chunk of stream) onChunk(chunk);
  } finally {
    call.signal?.removeEventListener("abort", kill);
  }
}

async function collect(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** The process's exit code; `aborted` when the call's signal stopped it. */
async function exitOf(process: SandboxProcess, call: ScriptCall): Promise<number | undefined> {
  try {
    const { exitCode } = await process.wait();
    if (call.signal?.aborted) {
      throw new OperationError("aborted", `${call.operation}: aborted`, {
        operation: call.operation,
        path: call.path,
      });
    }
    return exitCode;
  } catch (error) {
    throw sessionFailure(error, call.operation, call.signal, call.path);
  }
}
