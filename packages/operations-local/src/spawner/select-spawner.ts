import { createDirectSpawner } from "./direct-spawner.js";
import { HelperSpawner } from "./helper-spawner.js";
import { RemoteProcess } from "./remote-process.js";
import type { Spawner, SpawnerMode, SpawnRequest } from "./spawner.js";

/**
 * Resident memory of the host from which `spawner: "auto"` starts processes through the helper:
 * 200 MiB. Below it a direct spawn blocks the event loop for about as long as a small process's
 * (measured: 1.5 ms at 57 MB, 3.9 ms at 210 MB, 7 ms at 411 MB, Node 22), and skips the relay of
 * the output through a second process. See docs/performance.md, "Starting processes from a
 * large host".
 */
export const SPAWN_HELPER_RSS_BYTES = 200 * 1024 * 1024;

/** The helper this process's adapters share, and how many adapters hold it. */
let shared: { helper: HelperSpawner; users: number } | undefined;

/**
 * The process's spawn helper for one more adapter (one helper serves them all: a host running
 * many sessions pays one small process, not one each), and its release: the last adapter to
 * release it stops the helper.
 */
function acquireHelper(): { helper: HelperSpawner; release: () => Promise<void> } {
  shared ??= { helper: new HelperSpawner(), users: 0 };
  const entry = shared;
  entry.users++;
  let released = false;
  return {
    helper: entry.helper,
    release: async () => {
      if (released) return;
      released = true;
      entry.users--;
      if (entry.users > 0) return;
      if (shared === entry) shared = undefined;
      await entry.helper.dispose();
    },
  };
}

/** The spawner of one adapter: `mode` as in `LocalOperationsOptions.spawner`. */
export function createSpawner(mode: SpawnerMode): Spawner {
  if (mode === "direct") return createDirectSpawner();
  const { helper, release } = acquireHelper();
  if (mode === "helper") {
    return {
      spawn: (request) => helper.spawn(request),
      releaseHeld: (child) => helper.releaseHeld(child),
      lost: (child) => helper.lost(child),
      dispose: release,
    };
  }
  const direct = createDirectSpawner();
  const viaHelper = (request: SpawnRequest) => {
    // A process that writes into another's held pipe is started by the spawner that holds it.
    for (const slot of request.stdio) {
      if (typeof slot === "object" && "heldBy" in slot) return slot.heldBy instanceof RemoteProcess;
    }
    // The fork's cost is measured on Linux; elsewhere "auto" spawns directly.
    return process.platform === "linux" && process.memoryUsage.rss() >= SPAWN_HELPER_RSS_BYTES;
  };
  return {
    spawn: (request) => (viaHelper(request) ? helper : direct).spawn(request),
    releaseHeld: (child) => (child instanceof RemoteProcess ? helper : direct).releaseHeld(child),
    lost: (child) => helper.lost(child),
    dispose: release,
  };
}
