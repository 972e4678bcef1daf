import { createHash } from "node:crypto";
import { constants } from "node:fs";
import { lstat, open, readFile, unlink } from "node:fs/promises";
import {
  changedError,
  formatWriteLockOwner,
  isAbandonedWriteLock,
  OperationError,
  parseWriteLockOwner,
  throwIfAborted,
  WRITE_LOCK_WAIT_MS,
  type WriteExpectation,
  writeLockName,
} from "@tackle/operations";
import type { PinnedDirectory } from "./pinned-directory.js";
import { localProcessStart, localWriter } from "./writer-identity.js";

const LOCK_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
/** Longest pause between two tries at a held lock (it is held for a compare and a rename). */
const MAX_PAUSE_MS = 8;

/**
 * Takes the write lock of `name` in the pinned directory (see `writeLockName`): created with
 * O_EXCL, holding this process as owner. A lock whose holder is dead is removed and taken; a live
 * holder is waited for, up to `WRITE_LOCK_WAIT_MS` (then `timeout`). Returns the release.
 */
export async function takeWriteLock(
  directory: PinnedDirectory,
  name: string,
  path: string,
  signal: AbortSignal | undefined,
): Promise<() => Promise<void>> {
  const lock = directory.path(writeLockName(name));
  const self = localWriter();
  const deadline = Date.now() + WRITE_LOCK_WAIT_MS;
  for (let attempt = 0; ; attempt++) {
    throwIfAborted(signal, "writeFile");
    const handle = await open(lock, LOCK_FLAGS, 0o600).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "EEXIST") return undefined;
      throw error;
    });
    if (handle) {
      try {
        await handle.writeFile(formatWriteLockOwner(self));
      } finally {
        await handle.close();
      }
      return () => unlink(lock).catch(() => undefined);
    }
    if (await isAbandoned(lock, self.domain)) {
      await unlink(lock).catch(() => undefined);
      continue;
    }
    if (Date.now() > deadline) {
      throw new OperationError(
        "timeout",
        `writeFile: another writer held the write lock of ${path} for ${WRITE_LOCK_WAIT_MS / 1000} s; nothing was written`,
        { operation: "writeFile", path },
      );
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(MAX_PAUSE_MS, 1 << attempt)));
  }
}

async function isAbandoned(lock: string, domain: string): Promise<boolean> {
  try {
    const [text, stats] = await Promise.all([readFile(lock, "utf8"), lstat(lock)]);
    const owner = parseWriteLockOwner(text);
    const startOfPid =
      owner !== undefined && owner.domain === domain ? await localProcessStart(owner.pid) : undefined;
    return isAbandonedWriteLock(owner, { domain, startOfPid, ageMs: Date.now() - stats.mtimeMs });
  } catch {
    // Gone already: not abandoned, just free; the next try takes it.
    return false;
  }
}

/**
 * Fails with `changed` unless the file at `pinned` (reached through the pinned directory) holds
 * what `expect` says (`word`: its `writeExpectationWord`). Run while holding the write lock, right before the rename.
 */
export async function checkExpectation(
  pinned: string,
  expect: WriteExpectation,
  word: string,
  path: string,
): Promise<void> {
  const digest = await sha256Of(pinned);
  const holds = "absent" in expect ? digest === undefined : digest === word;
  if (!holds) throw changedError(path, expect);
}

/** Chunk size of the compare's read: the target is hashed as it streams, never held whole. */
const HASH_CHUNK_BYTES = 1024 * 1024;

/** Hex sha256 of the file at `path`, or `undefined` when there is none. */
async function sha256Of(path: string): Promise<string | undefined> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK).catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return undefined;
      throw error;
    },
  );
  if (!handle) return undefined;
  try {
    const hash = createHash("sha256");
    const buffer = Buffer.allocUnsafe(HASH_CHUNK_BYTES);
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      hash.update(buffer.subarray(0, bytesRead));
    }
    return hash.digest("hex");
  } finally {
    await handle.close();
  }
}
