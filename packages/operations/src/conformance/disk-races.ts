import { existsSync, watch } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";

/**
 * Helpers for race tests of adapters whose files land on this machine's disk (a test sshd, a
 * container with a bind mount): the test watches the directory the adapter writes into.
 */

/** Every path below `dir` (files, links and directories), relative, sorted. */
export async function listDiskTree(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true })).map(String).sort();
}

/**
 * Runs `write` and, the moment its temp file (a name with `.tackle-`) appears in `dir` (an
 * inotify event), calls `swap` with its name, which returns the directory the temp file should be
 * in now. Resolves with the write's outcome and whether the temp file was still there after the
 * swap (so the swap really came mid-write).
 */
export async function swapDuringWrite(
  dir: string,
  write: () => Promise<void>,
  swap: (tempName: string) => string,
): Promise<{ error: unknown; swappedMidWrite: boolean }> {
  let swappedMidWrite = false;
  let swapped = false;
  const watcher = watch(dir, (_event, name) => {
    if (swapped || !name?.includes(".tackle-")) return;
    swapped = true;
    swappedMidWrite = existsSync(join(swap(name), name));
  });
  try {
    await write();
    return { error: undefined, swappedMidWrite };
  } catch (error) {
    return { error, swappedMidWrite };
  } finally {
    watcher.close();
  }
}
