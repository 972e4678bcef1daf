/**
 * The spawn helper's program. It runs in its own small Node process, started as
 * `node -e "(<source of spawnHelperMain>)(<frame kinds>, require)"`, so it ships inside whatever bundle
 * holds this package (the CLI inlines it) without a file to find at run time. For that reason
 * the function uses nothing from outside its own body: no imports, no module constants; the
 * frame kinds arrive as its argument (the host's {@link HELPER_FRAME} table), and so does
 * `load`, the script's own `require` (a bundler rewrites a `require` written here; and
 * `process.getBuiltinModule` needs Node 22.3, above the floor of 22.0).
 *
 * Protocol. Requests arrive on stdin as JSON lines (`spawn`, `kill`, `pause`, `resume`, `drop`,
 * `release`). Everything the helper learns goes to stdout as binary frames, in the order it
 * happened: `[u32 length of the rest][u8 kind][u32 id][u8 fd][payload]`. A process's frames are
 * `spawned` (or `spawn-error`), then `data`/`end` per pipe and `exit` in the order Node saw
 * them, then `close` once the exit is known and every pipe ended: nothing of a process comes
 * after its `close`, so the host has all its output when it sees it.
 *
 * Stdin ending means the host is gone (or disposed the helper once its commands ended): the
 * helper exits, leaving what still runs as a direct spawn would (see the end of the function).
 */
export function spawnHelperMain(frame: Record<HelperFrameKind, number>, load: (id: string) => unknown): void {
  const { spawn } = load("node:child_process") as typeof import("node:child_process");
  const { openSync, closeSync } = load("node:fs") as typeof import("node:fs");
  const { Socket } = load("node:net") as typeof import("node:net");
  type Slot =
    | "ignore"
    | "pipe"
    | "hold"
    | { input: string }
    | { file: string; flags: string }
    | { held: number }
    | { same: number };
  interface Request {
    op: "spawn" | "kill" | "pause" | "resume" | "drop" | "release";
    id: number;
    file?: string;
    args?: string[];
    cwd?: string;
    env?: Record<string, string>;
    detached?: boolean;
    stdio?: Slot[];
    signal?: NodeJS.Signals;
    fd?: number;
    drain?: { idleGraceMs: number; maxMs: number };
  }
  interface Entry {
    child: import("node:child_process").ChildProcess;
    pipes: Map<number, import("node:stream").Readable>;
    held: import("node:stream").Writable | undefined;
    paused: boolean;
    /** When output last came (the idle grace after the exit counts from it). */
    lastOutputAt: number;
  }
  const entries = new Map<number, Entry>();
  // Asynchronous writes (process.stdout on a pipe writes synchronously on Linux and would stall
  // every command while the host is busy); when the host falls behind, every pipe pauses.
  const out = new Socket({ fd: 1, readable: false, writable: true });
  let blocked = false;
  const applyPause = (entry: Entry) => {
    for (const pipe of entry.pipes.values()) {
      if (blocked || entry.paused) pipe.pause();
      else pipe.resume();
    }
  };
  const send = (kind: number, id: number, fd: number, payload?: Uint8Array) => {
    const header = Buffer.allocUnsafe(10);
    header.writeUInt32BE(6 + (payload?.length ?? 0), 0);
    header.writeUInt8(kind, 4);
    header.writeUInt32BE(id, 5);
    header.writeUInt8(fd, 9);
    out.cork();
    out.write(header);
    if (payload && payload.length > 0) out.write(payload);
    out.uncork();
    if (out.writableNeedDrain && !blocked) {
      blocked = true;
      for (const entry of entries.values()) applyPause(entry);
      out.once("drain", () => {
        blocked = false;
        for (const entry of entries.values()) applyPause(entry);
      });
    }
  };
  const sendJson = (kind: number, id: number, value: unknown) =>
    send(kind, id, 0, Buffer.from(JSON.stringify(value)));

  const start = (request: Request) => {
    const { id } = request;
    const opened: number[] = [];
    const stdio: ("ignore" | "pipe" | number | import("node:stream").Writable)[] = [];
    try {
      for (const slot of request.stdio ?? []) {
        if (slot === "ignore" || slot === "pipe") stdio.push(slot);
        else if (slot === "hold" || "input" in slot) stdio.push("pipe");
        else if ("file" in slot) {
          const fd = openSync(slot.file, slot.flags, 0o600);
          opened.push(fd);
          stdio.push(fd);
        } else if ("same" in slot) {
          // The descriptor of an earlier position, shared (one open file description).
          stdio.push(stdio[slot.same] ?? "ignore");
        } else {
          const held = entries.get(slot.held)?.held;
          if (!held) throw Object.assign(new Error("the pipe to hand over is gone"), { code: "EPIPE" });
          stdio.push(held);
        }
      }
    } catch (error) {
      for (const fd of opened) closeSync(fd);
      const { code, message } = error as NodeJS.ErrnoException;
      sendJson(frame["spawn-error"], id, { code, message });
      return;
    }
    const detached = request.detached === true;
    let child: import("node:child_process").ChildProcess;
    try {
      child = spawn(request.file ?? "", request.args ?? [], {
        ...(request.cwd !== undefined ? { cwd: request.cwd } : {}),
        env: request.env ?? {},
        stdio,
        detached,
        windowsHide: true,
      });
    } catch (error) {
      const { code, message } = error as NodeJS.ErrnoException;
      sendJson(frame["spawn-error"], id, { code: code ?? "EINVAL", message });
      return;
    } finally {
      for (const fd of opened) closeSync(fd);
    }
    const entry: Entry = {
      child,
      pipes: new Map(),
      held: undefined,
      paused: false,
      lastOutputAt: Date.now(),
    };
    (request.stdio ?? []).forEach((slot, fd) => {
      const pipe = child.stdio[fd];
      if (!pipe) return;
      if (slot === "hold") entry.held = pipe as import("node:stream").Writable;
      else if (typeof slot === "object" && "input" in slot) {
        // Written at once: a reader such as bwrap waits for all of it before it goes on.
        pipe.on("error", () => undefined);
        (pipe as import("node:stream").Writable).end(Buffer.from(slot.input, "base64"));
      } else if (slot === "pipe") entry.pipes.set(fd, pipe as import("node:stream").Readable);
    });
    entry.held?.on("error", () => undefined);
    if (child.pid === undefined) {
      // The spawn failed ('error' follows on the next tick with the reason).
      child.once("error", (error: NodeJS.ErrnoException) => {
        sendJson(frame["spawn-error"], id, { code: error.code, message: error.message });
      });
      return;
    }
    entries.set(id, entry);
    sendJson(frame.spawned, id, { pid: child.pid });
    for (const [fd, pipe] of entry.pipes) {
      let ended = false;
      const end = () => {
        if (ended) return;
        ended = true;
        send(frame.end, id, fd);
      };
      pipe.on("data", (bytes: Buffer) => {
        entry.lastOutputAt = Date.now();
        send(frame.data, id, fd, bytes);
      });
      pipe.on("end", end);
      pipe.on("close", end);
      pipe.on("error", () => undefined);
    }
    applyPause(entry);
    child.on("error", () => undefined);
    child.once("exit", (code, signal) => {
      sendJson(frame.exit, id, { code, signal });
      if (request.drain) drainAfterExit(entry, request.drain);
    });
    child.once("close", (code, signal) => {
      entries.delete(id);
      sendJson(frame.close, id, { code, signal });
    });
  };

  // The pipes are read on after the exit until they end, or until the idle grace passed without
  // output (paused by the host counts as output pending), at most `maxMs` after the exit; then
  // they are closed, which sends their `end`. Here, where the pipes are read, not in the host:
  // relayed output reaches the host later than the exit report, by however long the relay takes.
  const drainAfterExit = (entry: Entry, drain: { idleGraceMs: number; maxMs: number }) => {
    const exitAt = Date.now();
    const check = (looked: boolean) => {
      const open = [...entry.pipes.values()].filter((pipe) => !pipe.readableEnded && !pipe.destroyed);
      if (open.length === 0) return;
      if (blocked || entry.paused) entry.lastOutputAt = Date.now();
      const idleFor = Date.now() - Math.max(entry.lastOutputAt, exitAt);
      const remaining = Math.min(drain.idleGraceMs - idleFor, exitAt + drain.maxMs - Date.now());
      if (remaining > 0) setTimeout(() => check(false), remaining);
      // Timers run before reads in a held-up event loop: one turn to read what is waiting.
      else if (!looked) setImmediate(() => check(true));
      else for (const pipe of open) pipe.destroy();
    };
    check(false);
  };

  const handle = (request: Request) => {
    if (request.op === "spawn") return start(request);
    const entry = entries.get(request.id);
    if (!entry) return;
    if (request.op === "kill") {
      entry.child.kill(request.signal ?? "SIGTERM");
    } else if (request.op === "pause" || request.op === "resume") {
      entry.paused = request.op === "pause";
      applyPause(entry);
    } else if (request.op === "drop") {
      entry.pipes.get(request.fd ?? -1)?.destroy();
    } else if (request.op === "release") {
      entry.held?.destroy();
      entry.held = undefined;
    }
  };

  let buffered = "";
  process.stdin.setEncoding("utf8");
  process.stdin.on("data", (text: string) => {
    buffered += text;
    for (let at = buffered.indexOf("\n"); at >= 0; at = buffered.indexOf("\n")) {
      const line = buffered.slice(0, at);
      buffered = buffered.slice(at + 1);
      try {
        handle(JSON.parse(line) as Request);
      } catch {
        // A malformed request cannot come from the host's own client; nothing to answer.
      }
    }
  });
  // The host is gone (or disposed the helper after ending its commands): exit. What still runs is
  // left as a direct spawn's detached commands are when their host exits (a background job a
  // later host finds as orphaned, by its marker); its pipes to this process break.
  process.stdin.on("end", () => process.exit(0));
  process.stdin.on("error", () => process.exit(0));
}

/** What the helper tells the host, one frame each (see {@link spawnHelperMain}). */
export type HelperFrameKind = "spawned" | "spawn-error" | "data" | "end" | "exit" | "close";

/** The frame kinds' numbers on the wire, passed to the helper when it starts. */
export const HELPER_FRAME: Record<HelperFrameKind, number> = {
  spawned: 1,
  "spawn-error": 2,
  data: 3,
  end: 4,
  exit: 5,
  close: 6,
};
