import { type ChildProcess, spawn } from "node:child_process";
import { type FileHandle, open } from "node:fs/promises";
import type { Writable } from "node:stream";
import type { SpawnedProcess, Spawner, SpawnRequest, StdioSlot } from "./spawner.js";

/**
 * Spawns in this process with `child_process.spawn`. On Linux libuv forks to spawn, and the
 * fork copies this process's page tables while the event loop waits: the cost grows with the
 * host's resident memory (see docs/performance.md, "Starting processes from a large host").
 */
export function createDirectSpawner(): Spawner {
  return {
    spawn: spawnDirect,
    releaseHeld: (process) => (process as unknown as ChildProcess).stdin?.destroy(),
    lost: () => false,
    dispose: async () => undefined,
  };
}

async function spawnDirect(request: SpawnRequest): Promise<SpawnedProcess> {
  const opened: FileHandle[] = [];
  // Not awaited once the process started: the caller must attach its listeners in the same turn
  // as the 'spawn' event (a command that exits at once would otherwise end unobserved).
  const closeOpened = () => {
    for (const handle of opened) void handle.close().catch(() => undefined);
  };
  const stdio: ("ignore" | "pipe" | number | Writable)[] = [];
  try {
    for (const [at, slot] of request.stdio.entries()) {
      const first = request.stdio.indexOf(slot);
      stdio.push(first < at ? (stdio[first] as number) : await descriptor(slot, opened));
    }
  } catch (error) {
    closeOpened();
    throw error;
  }
  return new Promise<SpawnedProcess>((resolve, reject) => {
    let child: ChildProcess;
    try {
      child = spawn(request.file, request.args, {
        ...(request.cwd !== undefined ? { cwd: request.cwd } : {}),
        ...(request.env !== undefined ? { env: request.env } : {}),
        stdio,
        detached: request.detached === true,
        windowsHide: true,
      });
    } catch (error) {
      reject(error);
      return;
    } finally {
      // The child holds its own copies of the descriptors.
      closeOpened();
    }
    // The input goes into its pipe at once, not after the 'spawn' event: a reader such as
    // bwrap waits for it, and on a loaded machine that event can come milliseconds later.
    request.stdio.forEach((slot, fd) => {
      if (typeof slot !== "object" || !("input" in slot)) return;
      const pipe = child.stdio[fd] as Writable | null | undefined;
      pipe?.on("error", () => undefined);
      pipe?.end(slot.input);
    });
    if (request.stdio[0] === "hold") child.stdin?.on("error", () => undefined);
    child.once("spawn", () => resolve(child as SpawnedProcess));
    child.once("error", reject);
  });
}

async function descriptor(
  slot: StdioSlot,
  opened: FileHandle[],
): Promise<"ignore" | "pipe" | number | Writable> {
  if (slot === "ignore" || slot === "pipe") return slot;
  if (slot === "hold" || "input" in slot) return "pipe";
  if ("file" in slot) {
    const handle = await open(slot.file, slot.flags, 0o600);
    opened.push(handle);
    return handle.fd;
  }
  const held = (slot.heldBy as unknown as ChildProcess).stdin;
  if (!held) throw Object.assign(new Error("the pipe to hand over is gone"), { code: "EPIPE" });
  return held;
}
