import { type ChildProcess, spawn } from "node:child_process";
import { OperationError } from "@tackle/operations";
import { endWithin } from "./end-within.js";
import { FrameReader } from "./frame-reader.js";
import { RemoteProcess } from "./remote-process.js";
import { HELPER_FRAME, spawnHelperMain } from "./spawn-helper-main.js";
import type { SpawnedProcess, Spawner, SpawnRequest } from "./spawner.js";

/** How long `dispose` waits for the helper to exit after its stdin closed, before SIGKILL. */
const HELPER_EXIT_WAIT_MS = 2000;

/**
 * A helper with nothing to do for this long (10 minutes) is stopped, and the next call starts
 * another: an adapter that is never disposed does not keep a process of about 46 MB for the
 * host's lifetime. Long, because a restart costs what the helper saves: one fork of the large
 * host, plus the helper's own start (about 40 ms, more under load) before the call runs, and an
 * agent's model can think for minutes between two commands.
 */
export const HELPER_IDLE_MS = 10 * 60_000;

/** The running helper and what it was asked to do. */
interface Helper {
  process: ChildProcess;
  /** Spawn requests not answered yet. */
  starting: Map<
    number,
    { resolve: (process: RemoteProcess) => void; reject: (error: Error) => void; request: SpawnRequest }
  >;
  /** Processes between `spawned` and `close`. */
  running: Map<number, RemoteProcess>;
  exited: Promise<void>;
  /** Stops the helper once it has been idle for the idle time. */
  idleTimer: NodeJS.Timeout | undefined;
}

/**
 * Starts processes through a helper process (see {@link spawnHelperMain}): the host writes one
 * line per request into a pipe and never forks, so a host with a large heap blocks its event
 * loop no longer than a small one does. The helper starts on first use (its own start is the
 * one fork this host pays) and again on the next call after it was lost.
 *
 * While a request is unanswered or a process runs, the helper keeps the host alive as a direct
 * child would; otherwise it does not (unref). If the helper dies, every process it started ends
 * with `lost` set (its output up to then delivered), and a spawn waiting for an answer rejects
 * with `connection_lost`.
 */
export class HelperSpawner implements Spawner {
  private helper: Helper | undefined;
  private nextId = 1;

  /** `idleMs`: how long an idle helper is kept (tests pass a short one). */
  constructor(private readonly idleMs = HELPER_IDLE_MS) {}

  spawn(request: SpawnRequest): Promise<SpawnedProcess> {
    this.helper ??= this.startHelper();
    const helper = this.helper;
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      helper.starting.set(id, { resolve, reject, request });
      this.updateRef(helper);
      this.send(helper, { op: "spawn", id, ...wireRequest(request) });
    });
  }

  releaseHeld(process: SpawnedProcess): void {
    if (process instanceof RemoteProcess && this.helper)
      this.send(this.helper, { op: "release", id: process.id });
  }

  lost(process: SpawnedProcess): boolean {
    return process instanceof RemoteProcess && process.lost;
  }

  async dispose(): Promise<void> {
    const helper = this.helper;
    if (!helper) return;
    this.helper = undefined;
    clearTimeout(helper.idleTimer);
    // Its stdin ending tells the helper to exit (the adapters ended their commands before).
    helper.process.stdin?.end();
    await endWithin(helper.process, helper.exited, HELPER_EXIT_WAIT_MS);
  }

  /** The pid of the helper now running, if any (tests check that it is gone). */
  get helperPid(): number | undefined {
    return this.helper?.process.pid;
  }

  private startHelper(): Helper {
    const source = `(${spawnHelperMain.toString()})(${JSON.stringify(HELPER_FRAME)}, require)`;
    // Its own session (no terminal's Ctrl-C or hang-up reaches it), no NODE_OPTIONS or other
    // settings of the host (every request carries the command's own environment). Not an empty
    // environment: the marker scan reads an empty one again and again for a quarter of a second
    // (it may be a process inside execve), at every command's end.
    const child = spawn(process.execPath, ["-e", source], {
      stdio: ["pipe", "pipe", "ignore"],
      detached: true,
      env: { TACKLE_SPAWN_HELPER: "1" },
      windowsHide: true,
    });
    const helper: Helper = {
      process: child,
      starting: new Map(),
      running: new Map(),
      exited: new Promise((resolve) => {
        child.once("exit", () => resolve());
        child.once("error", () => resolve());
      }),
      idleTimer: undefined,
    };
    child.stdin?.on("error", () => undefined);
    const reader = new FrameReader((kind, id, fd, payload) => this.onFrame(helper, kind, id, fd, payload));
    child.stdout?.on("data", (bytes: Buffer) => reader.push(bytes));
    // Every frame the helper wrote has been read when its stdout closes: only then is it lost.
    child.stdout?.once("close", () => reader.whenRead(() => this.onLost(helper)));
    child.once("error", () => this.onLost(helper));
    this.updateRef(helper);
    return helper;
  }

  /** Handles one frame; true after a `spawned` one (see `FrameReader`). */
  private onFrame(helper: Helper, kind: number, id: number, fd: number, payload: Buffer): boolean {
    if (kind === HELPER_FRAME.data) {
      helper.running.get(id)?.data(fd, payload);
      return false;
    }
    if (kind === HELPER_FRAME.end) {
      helper.running.get(id)?.end(fd);
      return false;
    }
    const message = payload.length > 0 ? JSON.parse(payload.toString("utf8")) : {};
    if (kind === HELPER_FRAME.spawned || kind === HELPER_FRAME["spawn-error"]) {
      const waiting = helper.starting.get(id);
      if (!waiting) return false;
      helper.starting.delete(id);
      if (kind === HELPER_FRAME["spawn-error"]) {
        waiting.reject(Object.assign(new Error(message.message ?? "spawn failed"), { code: message.code }));
      } else {
        const pipes = waiting.request.stdio.flatMap((slot, at) => (slot === "pipe" ? [at] : []));
        const remote = new RemoteProcess(
          id,
          message.pid,
          waiting.request.detached === true,
          pipes,
          (request) => this.send(helper, { ...request, id }),
          waiting.request.drain !== undefined,
        );
        helper.running.set(id, remote);
        waiting.resolve(remote);
      }
      this.updateRef(helper);
      return kind === HELPER_FRAME.spawned;
    } else if (kind === HELPER_FRAME.exit) {
      helper.running.get(id)?.exit(message.code ?? null, message.signal ?? null);
    } else if (kind === HELPER_FRAME.close) {
      const remote = helper.running.get(id);
      helper.running.delete(id);
      remote?.close(message.code ?? null, message.signal ?? null);
      this.updateRef(helper);
    }
    return false;
  }

  private onLost(helper: Helper): void {
    if (this.helper === helper) this.helper = undefined;
    const lost = new OperationError(
      "connection_lost",
      "exec: the spawn helper process exited; the next call starts a new one",
      { operation: "exec" },
    );
    for (const waiting of helper.starting.values()) waiting.reject(lost);
    helper.starting.clear();
    for (const remote of helper.running.values()) remote.lose();
    helper.running.clear();
    this.updateRef(helper);
  }

  /** Keeps the host alive exactly while the helper has work; stops it after `idleMs` without. */
  private updateRef(helper: Helper): void {
    const busy = helper.starting.size > 0 || helper.running.size > 0;
    clearTimeout(helper.idleTimer);
    helper.idleTimer = undefined;
    if (!busy && this.helper === helper) {
      helper.idleTimer = setTimeout(() => {
        if (this.helper !== helper) return;
        this.helper = undefined;
        helper.process.stdin?.end();
      }, this.idleMs);
      helper.idleTimer.unref();
    }
    const stdout = helper.process.stdout as (NodeJS.ReadableStream & { ref(): void; unref(): void }) | null;
    if (busy) {
      helper.process.ref();
      stdout?.ref();
    } else {
      helper.process.unref();
      stdout?.unref();
    }
    (helper.process.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  }

  private send(helper: Helper, message: object): void {
    if (helper.process.stdin?.writable) helper.process.stdin.write(`${JSON.stringify(message)}\n`);
  }
}

/** The request as the helper reads it: bytes in base64, a held pipe by its process's id. */
function wireRequest(request: SpawnRequest): object {
  return {
    file: request.file,
    args: request.args,
    ...(request.cwd !== undefined ? { cwd: request.cwd } : {}),
    // Inherited by a direct spawn; the helper's own environment is empty.
    env: request.env ?? process.env,
    detached: request.detached === true,
    ...(request.drain ? { drain: request.drain } : {}),
    stdio: request.stdio.map((slot, at) => {
      const first = request.stdio.indexOf(slot);
      if (typeof slot === "object" && first < at) return { same: first };
      if (typeof slot === "string" || "file" in slot) return slot;
      if ("input" in slot) return { input: Buffer.from(slot.input).toString("base64") };
      return { held: slot.heldBy instanceof RemoteProcess ? slot.heldBy.id : -1 };
    }),
  };
}
