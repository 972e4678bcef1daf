import type { IncomingMessage } from "node:http";
import { PassThrough, Writable } from "node:stream";
import { Exec, type KubeConfig, type V1Status } from "@kubernetes/client-node";
import { WebSocketHandler } from "@kubernetes/client-node/dist/web-socket-handler.js";
import WebSocket from "ws";

/** The exec subprotocols the adapter speaks, newest first: the API server picks one. */
export const EXEC_PROTOCOLS = ["v5.channel.k8s.io", "v4.channel.k8s.io"] as const;

/** One piece of a process's output, in arrival order. */
export interface ExecFrame {
  stream: "stdout" | "stderr";
  bytes: Uint8Array;
}

/** Where one exec goes: the pod, its container and the command line. */
export interface ExecTarget {
  namespace: string;
  pod: string;
  container: string;
}

/** A refused exec upgrade: the HTTP status and the `Status` body the API server sent. */
export class ExecUpgradeError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`exec upgrade refused (HTTP ${status})`);
  }
}

/** How a process ended, from the status channel (channel 3). */
export type ExecEnd =
  | { kind: "exited"; exitCode: number }
  /** A failure `Status` that is not an exit code: the runtime could not run the command. */
  | { kind: "failed"; message: string; reason: string | undefined }
  /** The stream closed without a status: the connection dropped. */
  | { kind: "lost"; message: string };

/** A process started by one pod exec. */
export interface PodProcess {
  /** The subprotocol the API server chose. */
  readonly protocol: string;
  /** Output in arrival order; ends when the stream closes. Pauses the socket while unread. */
  readonly frames: AsyncGenerator<ExecFrame>;
  /** How the process ended (settles once the stream closed). */
  readonly ended: Promise<ExecEnd>;
  /** Sends bytes to the process's stdin (started with `stdin: true`). */
  write(bytes: Uint8Array): void;
  /**
   * Closes stdin: on v5 a close frame for channel 0, the process reads end of file. v4 has no
   * such frame (closing would end the whole stream), so there it does nothing: scripts that
   * read stdin are told how many bytes to read.
   */
  closeStdin(): void;
  /** Closes the connection (the process itself is ended by the wrapper's watchdog). */
  detach(): void;
  /**
   * Whether the open connection keeps Node's event loop alive: an idle resident shell must not
   * (a host that never disposes would hang at exit), a request in flight must.
   */
  hold(busy: boolean): void;
}

/** Unread output past which the socket is paused until the reader catches up. */
const PAUSE_BYTES = 1 << 20;

/**
 * Starts `argv` in a pod's container through the API server's exec endpoint, with the client
 * library's `Exec` and its websocket handler: it authenticates from the kubeconfig, multiplexes
 * the channels and decodes the status. The adapter offers only v5 and v4 (both carry the exit
 * code as a `Status` on channel 3).
 */
export async function startPodExec(
  config: KubeConfig,
  target: ExecTarget,
  argv: string[],
  options: { stdin?: boolean } = {},
): Promise<PodProcess> {
  const queue: ExecFrame[] = [];
  let queued = 0;
  let closed = false;
  let wake: (() => void) | undefined;
  let socket: WebSocket | undefined;
  let status: V1Status | undefined;
  const notify = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  const sink = (stream: ExecFrame["stream"]) =>
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        queue.push({ stream, bytes: chunk });
        queued += chunk.length;
        if (queued > PAUSE_BYTES) socket?.pause();
        notify();
        done();
      },
    });
  const stdout = sink("stdout");
  const stderr = sink("stderr");
  const stdin = options.stdin ? new PassThrough() : null;
  let refused: ExecUpgradeError | undefined;
  const factory = (uri: string, _offered: string[], wsOptions: WebSocket.ClientOptions) => {
    const ws = new WebSocket(uri, [...EXEC_PROTOCOLS], wsOptions);
    // A refused upgrade carries the API server's Status in its body: keep it for the error.
    ws.on("unexpected-response", (request, response: IncomingMessage) => {
      const parts: Buffer[] = [];
      response.on("data", (part: Buffer) => parts.push(part));
      response.on("end", () => {
        refused = new ExecUpgradeError(response.statusCode ?? 0, Buffer.concat(parts).toString("utf8"));
        request.destroy();
        ws.emit("error", refused);
      });
    });
    return ws;
  };
  const handler = new WebSocketHandler(config, factory, {
    stdin: stdin ?? new PassThrough(),
    stdout,
    stderr,
  });
  const exec = new Exec(config, handler);
  let ws: WebSocket;
  try {
    ws = (await exec.exec(
      target.namespace,
      target.pod,
      target.container,
      argv,
      stdout,
      stderr,
      stdin,
      false,
      (s) => {
        status = s;
      },
    )) as unknown as WebSocket;
  } catch (error) {
    throw refused ?? (error as { error?: unknown })?.error ?? error;
  }
  socket = ws;
  const ended = new Promise<ExecEnd>((resolve) => {
    ws.on("close", (code, reason) => {
      closed = true;
      notify();
      resolve(endOf(status, code, reason.toString("utf8")));
    });
  });
  ws.on("error", () => {});

  async function* frames(): AsyncGenerator<ExecFrame> {
    try {
      for (;;) {
        const frame = queue.shift();
        if (frame) {
          queued -= frame.bytes.length;
          if (queued <= PAUSE_BYTES / 2 && ws.isPaused) ws.resume();
          yield frame;
          continue;
        }
        if (closed) return;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
    } finally {
      if (!closed) ws.terminate();
    }
  }

  return {
    protocol: ws.protocol,
    frames: frames(),
    ended,
    write(bytes) {
      stdin?.write(bytes);
    },
    closeStdin() {
      if (ws.protocol === "v5.channel.k8s.io") stdin?.end();
    },
    detach() {
      if (ws.readyState === WebSocket.CLOSED) return;
      ws.terminate();
    },
    hold(busy) {
      const socket = (ws as unknown as { _socket?: { ref(): void; unref(): void } })._socket;
      if (busy) socket?.ref();
      else socket?.unref();
    },
  };
}

/** Reads the exit of a process from its status (v4 and v5: a `metav1.Status` as JSON). */
function endOf(status: V1Status | undefined, code: number, reason: string): ExecEnd {
  if (status === undefined) {
    return {
      kind: "lost",
      message: `the exec stream closed without a status (websocket close ${code}${reason ? ` ${reason}` : ""})`,
    };
  }
  if (status.status === "Success") return { kind: "exited", exitCode: 0 };
  if (status.reason === "NonZeroExitCode") {
    const cause = status.details?.causes?.find((c) => c.reason === "ExitCode");
    const exitCode = Number(cause?.message);
    if (Number.isInteger(exitCode)) return { kind: "exited", exitCode };
  }
  return { kind: "failed", message: status.message ?? "the exec failed", reason: status.reason };
}
