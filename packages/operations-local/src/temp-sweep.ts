import { lstat, readdir, unlink } from "node:fs/promises";
import { isAbandonedTempFile, parseTempFileName } from "@tackle/operations";
import type { PinnedDirectory } from "./pinned-directory.js";
import { localProcessStart, localWriter } from "./writer-identity.js";

/**
 * Removes the temp files of dead writers from a directory a write is working in: a write killed
 * between creating its temp file and renaming it (SIGKILL, a crash) leaves one behind, and the
 * next write to the same directory clears it. A writer counts as dead as `isAbandonedTempFile`
 * says: on this machine, when no process with its pid and start time runs. Never fails the
 * write: a file that cannot be checked or removed stays.
 */
export async function sweepAbandonedTempFiles(directory: PinnedDirectory): Promise<void> {
  let names: string[];
  try {
    names = await readdir(directory.path("."));
  } catch {
    return;
  }
  const self = localWriter();
  for (const name of names) {
    const parsed = parseTempFileName(name);
    if (!parsed) continue;
    try {
      const stats = await lstat(directory.path(name));
      if (!stats.isFile()) continue;
      const startOfPid =
        parsed.owner.domain === self.domain ? await localProcessStart(parsed.owner.pid) : undefined;
      const facts = { domain: self.domain, startOfPid, ageMs: Date.now() - stats.mtimeMs };
      if (isAbandonedTempFile(parsed.owner, facts)) await unlink(directory.path(name));
    } catch {
      // Gone already (another sweeper), or not ours to remove: leave it.
    }
  }
}
