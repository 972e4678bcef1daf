import { existsSync, watch } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";

/** Every path below `dir` (files, links and directories), relative, sorted. */
export async function listTree(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true })).map(String).sort();
}

/**
 * Runs `write` and, the moment its temp file appears in `dir` (an inotify event: the test sshd
 * writes to this machine's disk), calls `swap` with its name, which returns where the temp file should be now.
 * Resolves with the write's outcome and whether the temp file was still there after the swap
 * (so the swap really came mid-write).
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
    const movedTo = swap(name);
    swappedMidWrite = existsSync(join(movedTo, name));
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
